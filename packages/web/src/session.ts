import { createTracker, type Tracker, TrackerError } from "@tracker/sdk";
import { watchedFetch } from "./connection.js";

const KEY_STORAGE = "tracker.apiKey";
const WORKSPACE_STORAGE = "tracker.workspace";

/**
 * What stands for the session cookie where a key would be: a person who signed in with their password. The
 * cookie itself is `HttpOnly` (the page never sees it); the browser sends it with every same-origin call.
 */
export const SESSION = "session";

/** The API key this origin remembers (or {@link SESSION}), kept in localStorage until the person signs out. */
export function storedKey(): string | null {
  return localStorage.getItem(KEY_STORAGE);
}

export function storeKey(key: string): void {
  localStorage.setItem(KEY_STORAGE, key);
}

/** The workspace last opened, so `/` reopens it. */
export function storedWorkspace(): string | null {
  return localStorage.getItem(WORKSPACE_STORAGE);
}

export function storeWorkspace(slug: string): void {
  localStorage.setItem(WORKSPACE_STORAGE, slug);
}

/**
 * Forgets the key, or ends the session on the server (`everywhere`: every session of the person, on every
 * device), then forgets it here.
 */
export async function signOut(options: { everywhere?: boolean } = {}): Promise<void> {
  if (storedKey() === SESSION) {
    const path = options.everywhere ? "/auth/sign-out-everywhere" : "/auth/sign-out";
    await trackerFor(SESSION)
      .raw.POST(path)
      .catch(() => undefined);
  }
  localStorage.removeItem(KEY_STORAGE);
  localStorage.removeItem(WORKSPACE_STORAGE);
}

/**
 * Writes made with the session cookie carry this header: the server's CSRF check (contract, "Sessions").
 * Given to the SDK as a header of every request rather than added by its fetch, so that an upload that
 * reports its progress (by `XMLHttpRequest`, past the fetch) carries it too.
 */
const SESSION_HEADERS = { "X-Requested-With": "tracker-web" };

/**
 * A same-origin call outside the SDK's operations (the OAuth consent endpoints), signed in as the board's
 * client is: the key as a bearer, or the session cookie with its CSRF header.
 */
export function signedFetch(apiKey: string, url: string, init: RequestInit = {}): Promise<Response> {
  const request = new Request(url, init);
  const headers = apiKey === SESSION ? SESSION_HEADERS : { authorization: `Bearer ${apiKey}` };
  for (const [name, value] of Object.entries(headers)) request.headers.set(name, value);
  return watchedFetch(request);
}

/**
 * A client for this page's own origin: the board is served by the server it talks to, so no CORS is
 * involved. The workspace travels as `X-Service-Workspace` (the contract's workspace resolution, step 1).
 */
export function trackerFor(apiKey: string, workspace?: string): Tracker {
  const session = apiKey === SESSION;
  // Two retries, not four: an edit shown at once is rolled back within seconds when the server is away.
  return createTracker({
    baseUrl: window.location.origin,
    ...(session ? { headers: SESSION_HEADERS } : { apiKey }),
    fetch: watchedFetch,
    maxRetries: 2,
    ...(workspace ? { workspace } : {}),
  });
}

/** What a person reads when a call fails: the problem's `detail`, and each field's message. */
export function describeError(error: unknown): string {
  if (error instanceof TrackerError) {
    const fields = error.errors.map((e) => `${e.path}: ${e.message}`);
    return [error.detail || error.title, ...fields].filter(Boolean).join(" ");
  }
  return error instanceof Error ? error.message : String(error);
}
