import type { Schemas } from "@tracker/sdk";
import { useApp } from "../app-context.js";
import { ErrorNote } from "../components/widgets.js";
import { describeError, signOut } from "../session.js";
import { store, useData } from "../store.js";
import { ApiKeysSettings } from "./settings-keys.js";

const when = (at: string) => new Date(at).toLocaleString();

/** Signs out here (or everywhere), then starts the board afresh at its sign-in page. */
async function signOutNow(options: { everywhere?: boolean } = {}) {
  await signOut(options);
  store.clear();
  window.location.assign("/");
}

/**
 * Settings, Access: everything that acts as the person. Their API keys (`settings-keys.tsx`), the apps they
 * authorised through OAuth (contract, `listOAuthGrants`; revoking one refuses its tokens at once:
 * `revokeOAuthGrant`) and the browsers they are signed in from (`listSessions`; one signed out with
 * `deleteSession`, all with `signOutEverywhere`).
 */
export function AccessSettings() {
  return (
    <>
      <ApiKeysSettings />
      <AppsSettings />
      <SessionsSettings />
    </>
  );
}

function AppsSettings() {
  const { tracker, notify } = useApp();
  const grants = useData("oauth-grants", () => tracker.account.apps());
  const revoke = (grant: Schemas["OAuthGrant"]) => {
    const name = grant.client.name ?? "this app";
    if (!window.confirm(`Revoke ${name}'s access to ${grant.workspace.name}? It is refused from then on.`))
      return;
    tracker.account.revokeApp(grant.id).then(
      () => {
        store.invalidate(["oauth-grants"]);
        notify(`${name} can no longer reach ${grant.workspace.name}.`);
      },
      (e) => notify(describeError(e), "error"),
    );
  };
  return (
    <section aria-labelledby="apps-heading" className="settings-section">
      <h3 id="apps-heading">Apps you authorised</h3>
      <p className="muted">
        Apps and agents you let act as you through the consent page. The name is the one the app gave itself.
      </p>
      <ErrorNote error={grants.error} />
      {grants.data?.length === 0 && <p className="muted">No apps.</p>}
      {!!grants.data?.length && (
        <div className="table-scroll">
          <table className="settings-table" aria-label="Apps you authorised">
            <thead>
              <tr>
                <th scope="col">App</th>
                <th scope="col">Workspace</th>
                <th scope="col">Access</th>
                <th scope="col">Authorised</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {grants.data.map((grant) => {
                const name = grant.client.name ?? "Unnamed app";
                return (
                  <tr key={grant.id} aria-label={name}>
                    <th scope="row">{name}</th>
                    <td>{grant.workspace.name}</td>
                    <td>{grant.access}</td>
                    <td>{when(grant.createdAt)}</td>
                    <td>
                      <button type="button" onClick={() => revoke(grant)} aria-label={`Revoke ${name}`}>
                        Revoke
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** "Chrome on macOS" from a User-Agent, or the text itself when nothing is recognised. */
export function describeBrowser(userAgent: string | null): string {
  if (!userAgent) return "Unknown browser";
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /Firefox\//.test(userAgent)
      ? "Firefox"
      : /Chrome\//.test(userAgent)
        ? "Chrome"
        : /Safari\//.test(userAgent)
          ? "Safari"
          : undefined;
  const os = /Android/.test(userAgent)
    ? "Android"
    : /iPhone|iPad/.test(userAgent)
      ? "iOS"
      : /Mac OS X/.test(userAgent)
        ? "macOS"
        : /Windows/.test(userAgent)
          ? "Windows"
          : /Linux/.test(userAgent)
            ? "Linux"
            : undefined;
  if (!browser) return userAgent.slice(0, 80);
  return os ? `${browser} on ${os}` : browser;
}

function SessionsSettings() {
  const { tracker, notify } = useApp();
  const sessions = useData("sessions", () => tracker.account.sessions());
  const end = (session: Schemas["BrowserSession"]) => {
    if (session.current) {
      if (!window.confirm("Sign out of this browser?")) return;
      signOutNow();
      return;
    }
    tracker.account.endSession(session.id).then(
      () => {
        store.invalidate(["sessions"]);
        notify(`${describeBrowser(session.userAgent)} was signed out.`);
      },
      (e) => notify(describeError(e), "error"),
    );
  };
  const everywhere = () => {
    if (!window.confirm("Sign out of every browser, this one too? Your API keys keep working.")) return;
    signOutNow({ everywhere: true });
  };
  return (
    <section aria-labelledby="sessions-heading" className="settings-section">
      <h3 id="sessions-heading">Where you are signed in</h3>
      <ErrorNote error={sessions.error} />
      {sessions.data?.length === 0 && <p className="muted">No browser is signed in: you use an API key.</p>}
      {!!sessions.data?.length && (
        <div className="table-scroll">
          <table className="settings-table" aria-label="Your sessions">
            <thead>
              <tr>
                <th scope="col">Browser</th>
                <th scope="col">Signed in</th>
                <th scope="col">Last seen</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.data.map((session) => {
                const browser = describeBrowser(session.userAgent);
                return (
                  <tr key={session.id} aria-label={session.current ? `${browser} (this browser)` : browser}>
                    <th scope="row">
                      <span title={session.userAgent ?? undefined}>{browser}</span>
                      {session.current && <span className="badge"> This browser</span>}
                      {session.singleSignOn && <span className="muted"> (single sign-on)</span>}
                    </th>
                    <td>{when(session.createdAt)}</td>
                    <td>{when(session.lastSeenAt)}</td>
                    <td>
                      <button
                        type="button"
                        onClick={() => end(session)}
                        aria-label={session.current ? "Sign out of this browser" : `Sign out ${browser}`}
                      >
                        Sign out
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {!!sessions.data?.length && (
        <button type="button" onClick={everywhere}>
          Sign out of every browser
        </button>
      )}
    </section>
  );
}
