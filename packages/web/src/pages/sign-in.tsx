import { type Schemas, TrackerError } from "@tracker/sdk";
import { type FormEvent, useEffect, useState } from "react";
import { ErrorNote } from "../components/widgets.js";
import { navigate } from "../router.js";
import { SESSION, signOut, storedWorkspace, storeKey, trackerFor } from "../session.js";

/**
 * Sign in with email and password (a session cookie the server sets), or, for automation and development,
 * with an API key, checked against the API before it is kept.
 */
export function SignInPage({ onSignedIn }: { onSignedIn(key: string): void }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [key, setKey] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const attempt = async (event: FormEvent, work: () => Promise<string>) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const credential = await work();
      storeKey(credential);
      onSignedIn(credential);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const withPassword = (event: FormEvent) =>
    attempt(event, async () => {
      await signInWithPassword(email.trim(), password);
      return SESSION;
    });
  const withKey = (event: FormEvent) =>
    attempt(event, async () => {
      const token = key.trim();
      await trackerFor(token).workspaces.list();
      return token;
    });

  return (
    <main className="centered">
      <h1>Sign in to Tracker</h1>
      <form onSubmit={withPassword} className="stack">
        <label htmlFor="email">Email</label>
        <input
          id="email"
          type="email"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          required
          // biome-ignore lint/a11y/noAutofocus: the first thing to do on this page
          autoFocus
        />
        <label htmlFor="password">Password</label>
        <input
          id="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
        />
        <button type="submit" className="primary" disabled={busy || !email.trim() || !password}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
        <ErrorNote error={error} />
      </form>
      <details>
        <summary>Use an API key</summary>
        <form onSubmit={withKey} className="stack">
          <label htmlFor="api-key">API key</label>
          <input
            id="api-key"
            type="password"
            autoComplete="off"
            placeholder="trk_…"
            value={key}
            onChange={(e) => setKey(e.target.value)}
            required
          />
          <p className="hint">
            <code>npm start</code> prints a development key; <code>npm run setup</code> makes one for a real
            workspace. The key stays in this browser until you sign out.
          </p>
          <button type="submit" disabled={busy || !key.trim()}>
            Sign in with the key
          </button>
        </form>
      </details>
    </main>
  );
}

/** `POST /auth/sign-in`: the answer sets the session cookie; a refusal is thrown as the SDK's error. */
async function signInWithPassword(email: string, password: string): Promise<void> {
  const { error, response } = await trackerFor(SESSION).raw.POST("/auth/sign-in", {
    body: { email, password },
  });
  if (error) throw TrackerError.fromResponse(response, error);
}

/**
 * `/invite/<token>`: the invited person names themselves and chooses a password, joins, and is signed in
 * with that password.
 */
export function InvitePage({ token, onSignedIn }: { token: string; onSignedIn(key: string): void }) {
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const accepted = await trackerFor(SESSION).raw.POST("/invites/accept", {
        body: { token, name: name.trim(), password },
      });
      if (accepted.error) throw TrackerError.fromResponse(accepted.response, accepted.error);
      await signInWithPassword(accepted.data.user.email, password);
      storeKey(SESSION);
      navigate(`/${accepted.data.workspace.slug}`, { replace: true });
      onSignedIn(SESSION);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="centered">
      <h1>Join Tracker</h1>
      <form onSubmit={submit} className="stack">
        <label htmlFor="name">Your name</label>
        <input
          id="name"
          autoComplete="name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          // biome-ignore lint/a11y/noAutofocus: the first thing to do on this page
          autoFocus
        />
        <label htmlFor="new-password">Choose a password</label>
        <input
          id="new-password"
          type="password"
          autoComplete="new-password"
          minLength={10}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
        />
        <p className="hint">At least 10 characters.</p>
        <button type="submit" className="primary" disabled={busy || !name.trim() || password.length < 10}>
          {busy ? "Joining…" : "Join"}
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
        onClick={async () => {
          await signOut();
          onSignOut();
        }}
      >
        Sign out
      </button>
    </main>
  );
}

/** `/reset/<token>`: a new password with an admin's reset link; then the person signs in with it. */
export function ResetPasswordPage({ token }: { token: string }) {
  const [password, setPassword] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const reset = await trackerFor(SESSION).raw.POST("/auth/password-reset", { body: { token, password } });
      if (reset.error) throw TrackerError.fromResponse(reset.response, reset.error);
      setDone(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <main className="centered">
        <h1>Password changed</h1>
        <p>Every earlier session has been signed out.</p>
        <button type="button" className="primary" onClick={() => navigate("/", { replace: true })}>
          Sign in
        </button>
      </main>
    );
  }
  return (
    <main className="centered">
      <h1>Set a new password</h1>
      <form onSubmit={submit} className="stack">
        <label htmlFor="new-password">New password</label>
        <input
          id="new-password"
          type="password"
          autoComplete="new-password"
          minLength={10}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
          // biome-ignore lint/a11y/noAutofocus: the only thing to do on this page
          autoFocus
        />
        <p className="hint">At least 10 characters.</p>
        <button type="submit" className="primary" disabled={busy || password.length < 10}>
          {busy ? "Saving…" : "Set password"}
        </button>
        <ErrorNote error={error} />
      </form>
    </main>
  );
}
