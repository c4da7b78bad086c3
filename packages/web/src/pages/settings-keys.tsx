import type { Schemas } from "@tracker/sdk";
import { useId, useState } from "react";
import { useApp } from "../app-context.js";
import { CopyField } from "../components/copy-field.js";
import { useSubmit } from "../components/use-submit.js";
import { ErrorNote } from "../components/widgets.js";
import { describeError } from "../session.js";
import { store, useData } from "../store.js";

type Access = Schemas["ApiKeyAccess"];
const ACCESS: Record<Access, string> = {
  read: "Read: changes nothing",
  write: "Write: everyday work",
  admin: "Admin: everything your role allows",
};
/** How long a new key works, in days; 0 for never expiring. */
const EXPIRY: [number, string][] = [
  [30, "30 days"],
  [90, "90 days"],
  [365, "1 year"],
  [7, "7 days"],
  [0, "Never"],
];

const when = (at: string | null, never: string) => (at ? new Date(at).toLocaleString() : never);

/**
 * Settings, API keys: the person's own keys (contract, "API keys": `listApiKeys` lists only the caller's),
 * a new one with a name, an access level and an expiry (its token is in the create answer only, so it is
 * shown that once, with a copy button), and revoking one (`deleteApiKey`).
 */
export function ApiKeysSettings() {
  const { tracker } = useApp();
  const keys = useData("api-keys", () => tracker.apiKeys.list());
  const id = useId();
  const [name, setName] = useState("");
  const [access, setAccess] = useState<Access>("write");
  const [days, setDays] = useState(90);
  const [made, setMade] = useState<Schemas["ApiKeyCreated"] | null>(null);
  const { submit, busy, error } = useSubmit(async () => {
    const expiresAt = days ? new Date(Date.now() + days * 86_400_000).toISOString() : undefined;
    const key = await tracker.apiKeys.create({
      name: name.trim(),
      access,
      ...(expiresAt ? { expiresAt } : {}),
    });
    setMade(key);
    setName("");
    store.invalidate(["api-keys"]);
  });
  return (
    <>
      <section aria-labelledby="new-key-heading" className="settings-section">
        <h3 id="new-key-heading">New API key</h3>
        <p className="muted">
          For scripts, CI and the command line: a key acts as you, in this workspace, with no more than the
          access you give it.
        </p>
        <form onSubmit={submit} className="row settings-form" aria-label="Create an API key">
          <span className="field">
            <label htmlFor={`${id}-name`}>Key name</label>
            <input
              id={`${id}-name`}
              value={name}
              maxLength={100}
              placeholder="CI"
              onChange={(e) => setName(e.target.value)}
              required
            />
          </span>
          <span className="field">
            <label htmlFor={`${id}-access`}>Access</label>
            <select id={`${id}-access`} value={access} onChange={(e) => setAccess(e.target.value as Access)}>
              {Object.entries(ACCESS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </span>
          <span className="field">
            <label htmlFor={`${id}-expiry`}>Expires after</label>
            <select id={`${id}-expiry`} value={days} onChange={(e) => setDays(Number(e.target.value))}>
              {EXPIRY.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </span>
          <button type="submit" className="primary" disabled={busy || !name.trim()}>
            {busy ? "Creating…" : "Create key"}
          </button>
        </form>
        <ErrorNote error={error} />
        {made && (
          <CopyField
            key={made.id}
            label={`Token of ${made.name}`}
            value={made.token}
            hint="Shown this once: copy it now. Tracker keeps only its hash."
          />
        )}
      </section>
      <section aria-labelledby="keys-heading" className="settings-section">
        <h3 id="keys-heading">Your keys</h3>
        <ErrorNote error={keys.error} />
        {keys.data?.length === 0 && <p className="muted">No keys yet.</p>}
        {!!keys.data?.length && (
          <div className="table-scroll">
            <table className="settings-table" aria-label="Your API keys">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Access</th>
                  <th scope="col">Reach</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Expires</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.data.map((key) => (
                  <KeyRow key={key.id} apiKey={key} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}

function KeyRow({ apiKey }: { apiKey: Schemas["ApiKey"] }) {
  const { tracker, notify } = useApp();
  const revoke = () => {
    if (!window.confirm(`Revoke ${apiKey.name}? Whatever uses it is refused from then on.`)) return;
    tracker.apiKeys.delete(apiKey.id).then(
      () => store.invalidate(["api-keys"]),
      (e) => notify(describeError(e), "error"),
    );
  };
  return (
    <tr aria-label={apiKey.name}>
      <th scope="row">{apiKey.name}</th>
      <td>{apiKey.access}</td>
      <td>{apiKey.scope === "account" ? "All your workspaces" : "This workspace"}</td>
      <td>{when(apiKey.lastUsedAt, "Never")}</td>
      <td>{when(apiKey.expiresAt, "Never")}</td>
      <td>
        <button type="button" onClick={revoke} aria-label={`Revoke ${apiKey.name}`}>
          Revoke
        </button>
      </td>
    </tr>
  );
}
