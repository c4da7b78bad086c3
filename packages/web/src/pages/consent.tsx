import { type Schemas, TrackerError } from "@tracker/sdk";
import { useEffect, useState } from "react";
import { ErrorNote } from "../components/widgets.js";
import { useTitle } from "../router.js";
import { signedFetch, storedKey, storedWorkspace, trackerFor } from "../session.js";
import { SignInPage } from "./sign-in.js";

/** What the server says of an authorization request (`GET /oauth/interaction/:uid/details`). */
interface Details {
  client: { id: string; name: string | null; uri: string | null };
  scopes: ("read" | "write" | "admin")[];
  resource: string;
}

const SCOPE_WORDS: Record<Details["scopes"][number], string> = {
  read: "Read everything you can see in the workspace",
  write: "Create and change issues, comments, projects and documents as you",
  admin: "Everything your role allows, including managing members, invites and keys",
};

/** A problem body's words, or the status. */
async function failure(res: Response): Promise<Error> {
  const body = (await res.json().catch(() => ({}))) as { detail?: string };
  return new Error(body.detail ?? `The server answered ${res.status}.`);
}

/**
 * `/consent/:uid`: an app asks to act for the person (the OAuth consent screen). Names the app, the
 * access it asks for and the one workspace it will reach, which the person chooses. The person is who
 * the board is signed in as: their session (password or single sign-on), or an API key; signed out, the
 * page signs them in first, as the sign-in page does, and single sign-on comes back here.
 */
export function ConsentPage({ uid }: { uid: string }) {
  const base = `/oauth/interaction/${encodeURIComponent(uid)}`;
  const [details, setDetails] = useState<Details | null>(null);
  const [apiKey, setApiKey] = useState<string | null>(storedKey);
  const [workspaces, setWorkspaces] = useState<Schemas["Workspace"][] | null>(null);
  const [chosen, setChosen] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const app = details?.client.name ?? details?.client.id ?? "An app";
  useTitle(details ? `Allow ${app}?` : "Allow access?");

  useEffect(() => {
    fetch(`${base}/details`)
      .then(async (res) =>
        res.ok ? setDetails((await res.json()) as Details) : setError(await failure(res)),
      )
      .catch(setError);
  }, [base]);

  useEffect(() => {
    if (!apiKey) return;
    trackerFor(apiKey)
      .workspaces.list()
      .then(
        (list) => {
          setWorkspaces(list);
          setChosen((list.find((w) => w.slug === storedWorkspace()) ?? list[0])?.slug ?? "");
        },
        (err: unknown) => {
          // Signed out meanwhile (the session ended, the key was deleted): sign in again here.
          if (err instanceof TrackerError && err.status === 401) setApiKey(null);
          else setError(err);
        },
      );
  }, [apiKey]);

  const answer = async (action: "confirm" | "deny") => {
    setBusy(true);
    setError(null);
    try {
      const init = {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(action === "confirm" ? { workspace: chosen } : {}),
      };
      const res = apiKey
        ? await signedFetch(apiKey, `${base}/${action}`, init)
        : await fetch(`${base}/${action}`, init);
      if (!res.ok) throw await failure(res);
      window.location.assign(((await res.json()) as { redirectTo: string }).redirectTo);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  if (!details)
    return (
      <main className="centered">
        <h1>Allow access?</h1>
        {error ? <ErrorNote error={error} /> : <p>Loading…</p>}
      </main>
    );

  return (
    <main className="centered">
      <h1>Allow {app} to use Tracker as you?</h1>
      {details.client.uri && (
        <p className="hint">
          From <code>{details.client.uri}</code>
        </p>
      )}
      <p>It asks to:</p>
      <ul aria-label="Access asked for">
        {details.scopes.map((s) => (
          <li key={s}>
            <strong>{s}</strong>: {SCOPE_WORDS[s]}
          </li>
        ))}
      </ul>
      {!apiKey ? (
        <SignInPage
          onSignedIn={setApiKey}
          within={{ heading: "Sign in to answer", returnTo: `/consent/${encodeURIComponent(uid)}` }}
        />
      ) : (
        <div className="stack">
          <label htmlFor="consent-workspace">Workspace it may reach</label>
          <select
            id="consent-workspace"
            value={chosen}
            onChange={(e) => setChosen(e.target.value)}
            disabled={!workspaces?.length}
          >
            {(workspaces ?? []).map((w) => (
              <option key={w.slug} value={w.slug}>
                {w.name}
              </option>
            ))}
          </select>
          <div className="row">
            <button
              type="button"
              className="primary"
              disabled={busy || !chosen}
              onClick={() => answer("confirm")}
            >
              Allow
            </button>
            <button type="button" disabled={busy} onClick={() => answer("deny")}>
              Deny
            </button>
          </div>
        </div>
      )}
      <ErrorNote error={error} />
    </main>
  );
}
