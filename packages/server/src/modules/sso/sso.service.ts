import type { EntityManager } from "@mikro-orm/postgresql";
import * as oidc from "openid-client";
import type { RequestBody, WorkspaceScope } from "../../http/handler.js";
import { fieldPath, Invalid } from "../../http/problem.js";
import { isOutboundUnreachable, outboundFetch, UNREACHABLE } from "../../net/outbound-guard.js";
import { secretBox } from "../codehost/secret-box.js";
import { Session } from "../sessions/session.entity.js";
import { type ISsoSettings, SsoLogin, SsoSettings } from "./sso.entity.js";

/**
 * A workspace's OpenID Connect provider, as admins set it (openapi.yaml, "Single sign-on": `GET`, `PUT`
 * and `DELETE /sso`), and the provider's configuration as the sign-in uses it (`sso-sign-in.ts`).
 */

type SettingsRow = Pick<ISsoSettings, "issuer" | "clientId" | "allowedDomains" | "enabled" | "updatedAt">;

const view = (s: SettingsRow) => ({
  issuer: s.issuer,
  clientId: s.clientId,
  allowedDomains: s.allowedDomains,
  enabled: s.enabled,
  updatedAt: s.updatedAt.toISOString(),
});

export async function getSettings(scope: WorkspaceScope) {
  const settings = await scope.em.findOne(SsoSettings, { workspace: scope.workspace.id });
  return settings ? view(settings) : null;
}

export async function putSettings(scope: WorkspaceScope, body: RequestBody<"putSsoSettings">) {
  const { em, workspace } = scope;
  const existing = await em.findOne(SsoSettings, { workspace: workspace.id });
  const box = secretBox(scope.config.dataDir);
  const secret = body.clientSecret ?? (existing ? box.open(existing.clientSecretSealed) : undefined);
  if (!secret)
    throw new Invalid("Give the client secret: the workspace has no single sign-on settings yet.", [
      { path: fieldPath("body", "clientSecret"), message: "is required the first time" },
    ]);
  const issuer = checkIssuer(body.issuer);
  // The provider answers before anything is saved: a typo in the issuer is found now, not at sign-in.
  await discover({ issuer, clientId: body.clientId, clientSecret: secret }).catch((err: unknown) => {
    // Refused, or not reached: one answer, the same for a closed port, an open one, a private address and
    // a name that does not resolve, so these settings cannot be used to map the server's network.
    if (isOutboundUnreachable(err))
      throw new Invalid(`The issuer ${UNREACHABLE}.`, [
        { path: fieldPath("body", "issuer"), message: UNREACHABLE },
      ]);
    throw new Invalid(`The provider at ${issuer} could not be used: ${reasonOf(err)}`, [
      { path: fieldPath("body", "issuer"), message: "has no usable OpenID Connect discovery document" },
    ]);
  });
  const values = {
    issuer,
    clientId: body.clientId,
    clientSecretSealed: box.seal(secret),
    allowedDomains: [...new Set((body.allowedDomains ?? []).map((d) => d.toLowerCase()))],
    enabled: body.enabled ?? true,
    updatedAt: new Date(),
  };
  const saved = existing
    ? Object.assign(existing, values)
    : em.create(SsoSettings, { workspace: workspace.id, ...values });
  await em.flush();
  if (!values.enabled) await em.nativeDelete(Session, { ssoWorkspace: workspace.id });
  configurations.clear();
  return view(saved);
}

export async function deleteSettings(scope: WorkspaceScope): Promise<void> {
  const { em, workspace } = scope;
  await em.transactional(async (tem) => {
    await tem.nativeDelete(SsoSettings, { workspace: workspace.id });
    await tem.nativeDelete(Session, { ssoWorkspace: workspace.id });
  });
  configurations.clear();
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The issuer as the provider names itself: `https`, or `http` for a provider on this machine. */
function checkIssuer(input: string): string {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new Invalid("The issuer is not a URL.", [
      { path: fieldPath("body", "issuer"), message: "is not a URL" },
    ]);
  }
  const local = url.protocol === "http:" && LOOPBACK.has(url.hostname);
  if (url.protocol !== "https:" && !local)
    throw new Invalid("The issuer must be an https URL (http only for a provider on this machine).", [
      { path: fieldPath("body", "issuer"), message: "must be https" },
    ]);
  if (url.search || url.hash)
    throw new Invalid("The issuer has no query or fragment.", [
      { path: fieldPath("body", "issuer"), message: "has a query or fragment" },
    ]);
  return input.replace(/\/+$/, "");
}

export function reasonOf(err: unknown): string {
  if (isOutboundUnreachable(err)) return UNREACHABLE;
  const e = err as { message?: string; cause?: { message?: string } };
  const message = e?.message ?? String(err);
  return e?.cause?.message ? `${message} (${e.cause.message})` : message;
}

interface ProviderSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/**
 * The provider's metadata and the client, from its discovery document (openid-client checks the issuer).
 * Every request to the provider, this one and the sign-in's later ones (token, userinfo, keys: the
 * configuration keeps the `customFetch`), goes through the outbound guard (`net/outbound-guard.ts`), so
 * a provider on this machine or on a private network is reached only where
 * `TRACKER_OUTBOUND_ALLOW_PRIVATE=1` allows it.
 */
function discover(settings: ProviderSettings): Promise<oidc.Configuration> {
  const url = new URL(settings.issuer);
  return oidc.discovery(url, settings.clientId, settings.clientSecret, undefined, {
    // Plain http only for a provider on this machine: `checkIssuer` refused any other.
    ...(url.protocol === "http:" ? { execute: [oidc.allowInsecureRequests] } : {}),
    // Typed for openid-client under any lib (the board's tests compile this file with the DOM's fetch types).
    [oidc.customFetch]: outboundFetch() as oidc.CustomFetch,
    timeout: 10,
  });
}

/** Discovered configurations, by settings; kept ten minutes so providers can rotate their keys. */
const configurations = new Map<string, { at: number; config: Promise<oidc.Configuration> }>();
const CONFIG_MS = 10 * 60_000;

export async function providerOf(
  em: EntityManager,
  workspaceId: string,
  dataDir: string,
): Promise<{ config: oidc.Configuration; allowedDomains: string[] } | null> {
  const settings = await em.findOne(SsoSettings, { workspace: workspaceId, enabled: true });
  if (!settings) return null;
  const key = `${workspaceId}:${settings.updatedAt.getTime()}`;
  let cached = configurations.get(key);
  if (!cached || Date.now() - cached.at > CONFIG_MS) {
    const clientSecret = secretBox(dataDir).open(settings.clientSecretSealed);
    if (!clientSecret)
      throw new Error("The provider's client secret cannot be opened with this server's key.");
    cached = { at: Date.now(), config: discover({ ...settings, clientSecret }) };
    configurations.set(key, cached);
    // A failed discovery is not kept: the next sign-in asks again.
    cached.config.catch(() => configurations.delete(key));
  }
  return { config: await cached.config, allowedDomains: settings.allowedDomains };
}

/** Sign-ins begun and never finished (the person closed the tab at the provider): gone after their ten minutes. */
export async function pruneSsoLogins(em: EntityManager): Promise<number> {
  return em.nativeDelete(SsoLogin, { expiresAt: { $lt: new Date() } });
}
