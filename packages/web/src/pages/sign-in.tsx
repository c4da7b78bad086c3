import { type Schemas, TrackerError } from "@tracker/sdk";
import { type FormEvent, useEffect, useState } from "react";
import { ErrorNote } from "../components/widgets.js";
import { navigate } from "../router.js";
import { SESSION, signOut, storedWorkspace, storeKey, trackerFor } from "../session.js";

/**
 * Sign in with email and password (a session cookie the server sets), or, for automation and development,
 * with an API key, checked against the API before it is kept. `within`: a part of another page (the OAuth
 * consent page) under its own heading, single sign-on coming back to `returnTo`.
 */
export function SignInPage({
  onSignedIn,
  within,
}: {
  onSignedIn(key: string): void;
  within?: { heading: string; returnTo: string } | undefined;
}) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [key, setKey] = useState("");
  const [workspace, setWorkspace] = useState(storedWorkspace() ?? "");
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const ssoError = new URLSearchParams(window.location.search).get("sso_error");

  // Back from single sign-on, the browser holds a session cookie the page cannot see: ask who it is.
  useEffect(() => {
    let live = true;
    trackerFor(SESSION)
      .raw.GET("/auth/session")
      .then(({ data }) => {
        if (!live || !data || data.via !== "session") return;
        storeKey(SESSION);
        onSignedIn(SESSION);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [onSignedIn]);

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

  // The workspace's provider, through the server (contract, "Single sign-on"): a navigation, not a call.
  const withSso = (event: FormEvent) => {
    event.preventDefault();
    const slug = workspace.trim().toLowerCase();
    window.location.assign(
      `/auth/sso/${encodeURIComponent(slug)}?returnTo=${encodeURIComponent(within?.returnTo ?? `/${slug}`)}`,
    );
  };

  const Outer = within ? "section" : "main";
  const Sub = within ? "h3" : "h2";
  return (
    <Outer className={within ? "stack" : "centered"} aria-labelledby="sign-in-heading">
      {within ? (
        <h2 id="sign-in-heading">{within.heading}</h2>
      ) : (
        <h1 id="sign-in-heading">Sign in to Tracker</h1>
      )}
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
      <form onSubmit={withSso} className="stack" aria-label="Single sign-on">
        <Sub>Single sign-on</Sub>
        {ssoError && (
          <p role="alert" className="error">
            {SSO_ERRORS[ssoError] ?? "Single sign-on did not sign you in."}
          </p>
        )}
        <label htmlFor="sso-workspace">Workspace</label>
        <input
          id="sso-workspace"
          autoComplete="organization"
          placeholder="acme"
          value={workspace}
          onChange={(e) => setWorkspace(e.target.value)}
          required
        />
        <button type="submit" disabled={!workspace.trim()}>
          Continue with single sign-on
        </button>
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
    </Outer>
  );
}

/** What each `sso_error` of the server's redirect (contract, "Single sign-on") means to the person. */
const SSO_ERRORS: Record<string, string> = {
  sso_failed: "The workspace's sign-in provider did not sign you in. Try again, or ask an admin.",
  sso_expired: "That sign-in took too long or began in another browser. Start again.",
  sso_email_unverified: "The provider did not vouch for a verified e-mail address.",
  sso_not_allowed: "Your e-mail address may not join this workspace: ask an admin to invite you.",
};

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
