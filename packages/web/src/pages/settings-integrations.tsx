import { TrackerError } from "@tracker/sdk";
import { useId, useState } from "react";
import { useApp } from "../app-context.js";
import { CopyField } from "../components/copy-field.js";
import { useSubmit } from "../components/use-submit.js";
import { ErrorNote } from "../components/widgets.js";
import { describeError } from "../session.js";
import { store, useData } from "../store.js";

/**
 * Settings, Integrations (admins): the workspace's GitHub connection and its single sign-on provider.
 * Webhooks, the third way out of the workspace, keep their own screen beside this one.
 */
export function IntegrationsSettings() {
  const { me } = useApp();
  if (me && me.role !== "admin") {
    // Any member may read whether GitHub is connected (contract, `getCodehost`); the rest is the admins'.
    return (
      <>
        <p className="empty">Only workspace admins manage integrations and single sign-on.</p>
        <GithubSettings admin={false} />
      </>
    );
  }
  return (
    <>
      <GithubSettings admin />
      <SsoSettings />
    </>
  );
}

/**
 * GitHub (contract, `getCodehost`, `connectCodehost`, `disconnectCodehost`): connecting makes the webhook
 * secret, shown this once with the payload URL (the server's address and `codehost.path`); connecting again
 * replaces the secret; disconnecting makes the server refuse deliveries.
 */
function GithubSettings({ admin }: { admin: boolean }) {
  const { tracker, notify } = useApp();
  const codehost = useData("codehost", () => tracker.workspaces.codehost());
  const [shown, setShown] = useState<{ url: string; secret: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const connected = codehost.data?.configured === true;

  const connect = async () => {
    if (
      connected &&
      !window.confirm("Make a new webhook secret? GitHub must be given it before it delivers again.")
    )
      return;
    setBusy(true);
    setError(null);
    try {
      const made = await tracker.workspaces.connectCodehost({ provider: "github" });
      setShown({ url: `${window.location.origin}${made.codehost.path ?? ""}`, secret: made.secret });
      store.invalidate(["codehost"]);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const disconnect = async () => {
    if (
      !window.confirm("Disconnect GitHub? Its deliveries are refused from now on; linked pull requests stay.")
    )
      return;
    setBusy(true);
    setError(null);
    try {
      await tracker.workspaces.disconnectCodehost();
      setShown(null);
      store.invalidate(["codehost"]);
      notify("GitHub is disconnected.");
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="github-heading" className="settings-section">
      <h3 id="github-heading">GitHub</h3>
      <p className="muted">
        Pull requests and pushes that name an issue (<code>ENG-12</code> in the branch, the title, or after{" "}
        <code>Fixes</code> in the body) are linked to it and move it by the team's workflow rules.
      </p>
      <ErrorNote error={codehost.error} />
      {codehost.data && (
        <>
          <p>
            {connected ? (
              <>
                <span className="badge">Connected</span> Deliveries are taken at{" "}
                <code>{codehost.data.path}</code>.
              </>
            ) : (
              "Not connected."
            )}
          </p>
          {connected && codehost.data.events.length > 0 && (
            <p className="hint">Events taken: {codehost.data.events.join(", ")}.</p>
          )}
          {shown && (
            <div className="stack github-secret">
              <CopyField label="Payload URL" value={shown.url} />
              <CopyField
                label="Secret"
                value={shown.secret}
                hint="Shown this once: the server keeps it encrypted."
              />
              <p>
                In GitHub, open the repository's (or the organization's) Settings, Webhooks, Add webhook:
                paste the payload URL and the secret, choose the content type <code>application/json</code>,
                and under "Let me select individual events" tick Pull requests and Pushes. GitHub's first
                delivery, a ping, should then show a green tick.
              </p>
            </div>
          )}
          {admin && (
            <p className="settings-item-actions">
              <button
                type="button"
                className={connected ? undefined : "primary"}
                disabled={busy}
                onClick={connect}
              >
                {connected ? "Make a new secret" : "Connect GitHub"}
              </button>
              {connected && (
                <button type="button" disabled={busy} onClick={disconnect}>
                  Disconnect GitHub
                </button>
              )}
            </p>
          )}
          <ErrorNote error={error} />
        </>
      )}
    </section>
  );
}

/** E-mail domains as typed (commas, spaces or lines apart, `@` and case ignored) -> the contract's list. */
export function parseDomains(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,;]+/)
        .map((d) => d.trim().replace(/^@/, "").toLowerCase())
        .filter(Boolean),
    ),
  ];
}

/**
 * Single sign-on (contract, "Single sign-on", `getSsoSettings`, `putSsoSettings`, `deleteSsoSettings`): the
 * workspace's OpenID Connect provider. The client secret is write-only: required the first time, left empty
 * it keeps the saved one. The allowed domains are who may join by signing in; a test sign-in opens
 * `/auth/sso/<slug>` in a new tab.
 */
function SsoSettings() {
  const { tracker, ws, notify } = useApp();
  const id = useId();
  const sso = useData("sso", async () => {
    const got = await tracker.raw.GET("/sso");
    if (got.error) throw TrackerError.fromResponse(got.response, got.error);
    return got.data.sso;
  });
  const saved = sso.data ?? null;
  const [draft, setDraft] = useState<{ issuer: string; clientId: string; domains: string } | null>(null);
  const [secret, setSecret] = useState("");
  const form = draft ?? {
    issuer: saved?.issuer ?? "",
    clientId: saved?.clientId ?? "",
    domains: saved?.allowedDomains.join(", ") ?? "",
  };
  const edit = (change: Partial<typeof form>) => setDraft({ ...form, ...change });
  const { submit, busy, error } = useSubmit(async () => {
    const put = await tracker.raw.PUT("/sso", {
      body: {
        issuer: form.issuer.trim(),
        clientId: form.clientId.trim(),
        ...(secret ? { clientSecret: secret } : {}),
        allowedDomains: parseDomains(form.domains),
      },
    });
    if (put.error) throw TrackerError.fromResponse(put.response, put.error);
    setDraft(null);
    setSecret("");
    store.invalidate(["sso"]);
    notify("Single sign-on is saved.");
  });
  const remove = async () => {
    if (!window.confirm("Turn single sign-on off? Sessions it made end; accounts it made stay.")) return;
    try {
      const got = await tracker.raw.DELETE("/sso");
      if (got.error) throw TrackerError.fromResponse(got.response, got.error);
      setDraft(null);
      setSecret("");
      store.invalidate(["sso"]);
      notify("Single sign-on is off.");
    } catch (e) {
      notify(describeError(e), "error");
    }
  };
  const domains = parseDomains(form.domains);
  return (
    <section aria-labelledby="sso-heading" className="settings-section">
      <h3 id="sso-heading">Single sign-on</h3>
      <p className="muted">
        People sign in through the workspace's OpenID Connect provider (Okta, Entra ID, Google Workspace,
        Keycloak…). Make an app for Tracker there with this redirect URI:
      </p>
      <CopyField label="Redirect URI" value={`${window.location.origin}/auth/sso/callback`} />
      <ErrorNote error={sso.error} />
      {sso.data !== undefined && (
        <form onSubmit={submit} className="stack settings-form" aria-label="Single sign-on">
          <p>
            {saved ? (
              <>
                <span className="badge">{saved.enabled ? "On" : "Off"}</span> Saved{" "}
                {new Date(saved.updatedAt).toLocaleString()}.
              </>
            ) : (
              "Not set up."
            )}
          </p>
          <label htmlFor={`${id}-issuer`}>Issuer</label>
          <input
            id={`${id}-issuer`}
            type="url"
            value={form.issuer}
            placeholder="https://acme.okta.com"
            maxLength={500}
            onChange={(e) => edit({ issuer: e.target.value })}
            required
          />
          <label htmlFor={`${id}-client`}>Client ID</label>
          <input
            id={`${id}-client`}
            value={form.clientId}
            maxLength={300}
            spellCheck={false}
            onChange={(e) => edit({ clientId: e.target.value })}
            required
          />
          <label htmlFor={`${id}-secret`}>Client secret</label>
          <input
            id={`${id}-secret`}
            type="password"
            autoComplete="off"
            value={secret}
            maxLength={500}
            placeholder={saved ? "Saved: leave empty to keep it" : ""}
            aria-describedby={`${id}-secret-hint`}
            onChange={(e) => setSecret(e.target.value)}
            required={!saved}
          />
          <p id={`${id}-secret-hint`} className="hint">
            Never shown again once saved.
          </p>
          <label htmlFor={`${id}-domains`}>Allowed e-mail domains</label>
          <input
            id={`${id}-domains`}
            value={form.domains}
            placeholder="acme.com, acme.co.uk"
            aria-describedby={`${id}-domains-hint`}
            onChange={(e) => edit({ domains: e.target.value })}
          />
          <p id={`${id}-domains-hint`} className="hint">
            {domains.length
              ? `Anyone with a verified address at ${domains.join(", ")} joins the workspace as a member by signing in; members sign in whatever their address.`
              : "None: only the workspace's members sign in through the provider."}
          </p>
          <p className="settings-item-actions">
            <button
              type="submit"
              className="primary"
              disabled={busy || !form.issuer.trim() || !form.clientId.trim() || (!saved && !secret)}
            >
              Save single sign-on
            </button>
            {saved && (
              <a
                className="button-link"
                href={`/auth/sso/${encodeURIComponent(ws)}?returnTo=${encodeURIComponent(`/${ws}`)}`}
                target="_blank"
                rel="noopener noreferrer"
                aria-describedby={`${id}-test-hint`}
              >
                Test sign-in
              </a>
            )}
            {saved && (
              <button type="button" onClick={() => void remove()}>
                Remove single sign-on
              </button>
            )}
          </p>
          {saved && (
            <p id={`${id}-test-hint`} className="hint">
              The test opens the provider's sign-in in a new tab. Finishing it signs this browser in through
              the provider, into this workspace only: test in a private window to stay signed in as you are.
            </p>
          )}
          <ErrorNote error={error} />
        </form>
      )}
    </section>
  );
}
