import type { Schemas } from "@tracker/sdk";
import { type FormEvent, useEffect, useState } from "react";
import { ErrorNote } from "../components/widgets.js";
import { navigate } from "../router.js";
import { signOut, storedWorkspace, storeKey, trackerFor } from "../session.js";

/** Sign in with an API key; it is checked against the API before it is kept. */
export function SignInPage({ onSignedIn }: { onSignedIn(key: string): void }) {
  const [key, setKey] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const token = key.trim();
      await trackerFor(token).workspaces.list();
      storeKey(token);
      onSignedIn(token);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="centered">
      <h1>Sign in to Tracker</h1>
      <form onSubmit={submit} className="stack">
        <label htmlFor="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autoComplete="current-password"
          placeholder="trk_…"
          value={key}
          onChange={(e) => setKey(e.target.value)}
          required
          // biome-ignore lint/a11y/noAutofocus: the only thing to do on this page
          autoFocus
        />
        <p className="hint">
          <code>npm start</code> prints a development key; <code>npm run setup</code> makes one for a real
          workspace. The key stays in this browser until you sign out.
        </p>
        <button type="submit" className="primary" disabled={busy || !key.trim()}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
        <ErrorNote error={error} />
      </form>
    </main>
  );
}

/** `/`: the workspaces the key reaches; the last one opened, or the only one, opens by itself. */
export function WorkspacePicker({ apiKey, onSignOut }: { apiKey: string; onSignOut(): void }) {
  const [workspaces, setWorkspaces] = useState<Schemas["Workspace"][] | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    trackerFor(apiKey)
      .workspaces.list()
      .then((list) => {
        // `/?choose` (the workspace name in the sidebar) always shows the choice.
        const choosing = new URLSearchParams(window.location.search).has("choose");
        const remembered = choosing ? undefined : list.find((w) => w.slug === storedWorkspace());
        const only = list.length === 1 && !choosing ? list[0] : undefined;
        const open = remembered ?? only;
        if (open) navigate(`/${open.slug}`, { replace: true });
        else setWorkspaces(list);
      }, setError);
  }, [apiKey]);

  return (
    <main className="centered">
      <h1>Choose a workspace</h1>
      <ErrorNote error={error} />
      {workspaces && (
        <ul className="choices">
          {workspaces.map((w) => (
            <li key={w.id}>
              <button type="button" onClick={() => navigate(`/${w.slug}`)}>
                {w.name} <span className="muted">{w.slug}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <button
        type="button"
        onClick={() => {
          signOut();
          onSignOut();
        }}
      >
        Sign out
      </button>
    </main>
  );
}
