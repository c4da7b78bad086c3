import { hostname } from "node:os";
import { openInBrowser } from "../../browser.js";
import { CommandError, type Deps } from "../../command.js";
import type { StoredOAuth } from "../../config.js";
import { say } from "../../output.js";

/**
 * `tracker auth login --web`: the device authorization grant (RFC 8628) against the server's OAuth
 * authorization server (the contract's "OAuth for apps and agents"), as `gh auth login --web` does: the
 * command registers itself as a client, shows a one-time code and the page to enter it on, opens that
 * page when it can, and polls until the person approves on the consent page. The access token is stored
 * where keys are stored, with the refresh token that renews it (`refreshStored`).
 */

const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

interface Metadata {
  issuer: string;
  token_endpoint: string;
  registration_endpoint: string;
  device_authorization_endpoint: string;
}

interface TokenAnswer {
  access_token: string;
  refresh_token?: string;
  expires_in: number;
  scope?: string;
}

async function metadataOf(url: string, signal?: AbortSignal): Promise<Metadata> {
  const res = await fetch(`${url}/.well-known/oauth-authorization-server`, { signal });
  if (!res.ok)
    throw new CommandError(`${url} has no OAuth authorization server (${res.status}); log in with a key`);
  return (await res.json()) as Metadata;
}

async function postForm(endpoint: string, body: Record<string, string>, signal?: AbortSignal) {
  const res = await fetch(endpoint, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(body).toString(),
    signal,
  });
  return { ok: res.ok, json: (await res.json().catch(() => ({}))) as Record<string, unknown> };
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

/** The device flow, from registration to the person's approval: the token and what renews it. */
export async function deviceLogin(
  deps: Deps,
  url: string,
  scope: string,
  noBrowser: boolean,
): Promise<{ accessToken: string; oauth: StoredOAuth | undefined }> {
  const signal = deps.call.signal;
  const meta = await metadataOf(url, signal);
  const reg = await fetch(meta.registration_endpoint, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: `Tracker CLI on ${hostname()}`,
      grant_types: [DEVICE_GRANT, "refresh_token"],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: "none",
    }),
    signal,
  });
  if (!reg.ok)
    throw new CommandError(`the server refused to register this command line: ${await reg.text()}`);
  const { client_id: clientId } = (await reg.json()) as { client_id: string };

  const device = await postForm(meta.device_authorization_endpoint, { client_id: clientId, scope }, signal);
  if (!device.ok) throw new CommandError(`the server refused the device login: ${String(device.json.error)}`);
  const d = device.json as {
    device_code: string;
    user_code: string;
    verification_uri: string;
    verification_uri_complete?: string;
    expires_in: number;
    interval?: number;
  };
  say(deps, `First copy your one-time code: ${d.user_code}`);
  const page = d.verification_uri_complete ?? d.verification_uri;
  if (!noBrowser && deps.isTTY && deps.stderrTTY)
    await openInBrowser(deps, page, false).catch(() => undefined);
  else say(deps, `Open ${page} in a browser to approve.`);
  say(deps, "Waiting for approval…");

  let interval = (d.interval ?? 5) * 1000;
  const deadline = Date.now() + d.expires_in * 1000;
  while (Date.now() < deadline) {
    await sleep(interval, signal);
    const res = await postForm(
      meta.token_endpoint,
      { grant_type: DEVICE_GRANT, device_code: d.device_code, client_id: clientId },
      signal,
    );
    if (res.ok) {
      const t = res.json as unknown as TokenAnswer;
      return {
        accessToken: t.access_token,
        oauth: t.refresh_token
          ? {
              clientId,
              tokenEndpoint: meta.token_endpoint,
              refreshToken: t.refresh_token,
              expiresAt: Date.now() + t.expires_in * 1000,
            }
          : undefined,
      };
    }
    const error = String(res.json.error);
    if (error === "authorization_pending") continue;
    if (error === "slow_down") {
      interval += 5000;
      continue;
    }
    if (error === "access_denied") throw new CommandError("the login was denied in the browser");
    if (error === "expired_token") break;
    throw new CommandError(
      `the login failed: ${error}${res.json.error_description ? ` (${String(res.json.error_description)})` : ""}`,
    );
  }
  throw new CommandError("the code expired before it was approved; run 'tracker auth login --web' again");
}

/**
 * A stored OAuth login whose access token expires within a minute, renewed with its refresh token (which
 * rotates: the new one is stored). Undefined when it cannot be renewed: the person logs in again.
 */
export async function refreshStored(
  oauth: StoredOAuth,
): Promise<{ accessToken: string; oauth: StoredOAuth } | undefined> {
  const res = await postForm(oauth.tokenEndpoint, {
    grant_type: "refresh_token",
    refresh_token: oauth.refreshToken,
    client_id: oauth.clientId,
  }).catch(() => undefined);
  if (!res?.ok) return undefined;
  const t = res.json as unknown as TokenAnswer;
  return {
    accessToken: t.access_token,
    oauth: {
      ...oauth,
      refreshToken: t.refresh_token ?? oauth.refreshToken,
      expiresAt: Date.now() + t.expires_in * 1000,
    },
  };
}

/**
 * Revokes a --web login at the server (RFC 7009): its refresh token, which ends the grant, and its access
 * token. True when the server took both.
 */
export async function revokeStored(oauth: StoredOAuth, accessToken: string): Promise<boolean> {
  const revocation = oauth.tokenEndpoint.replace(/\/token$/, "/token/revocation");
  const results = await Promise.all(
    [oauth.refreshToken, accessToken].map((token) =>
      postForm(revocation, { token, client_id: oauth.clientId }).then(
        (res) => res.ok,
        () => false,
      ),
    ),
  );
  return results.every(Boolean);
}
