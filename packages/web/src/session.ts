import { createTracker, type Tracker, TrackerError } from "@tracker/sdk";
import { watchedFetch } from "./connection.js";

const KEY_STORAGE = "tracker.apiKey";
const WORKSPACE_STORAGE = "tracker.workspace";

/** The API key this origin remembers, kept in localStorage until the person signs out. */
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

export function signOut(): void {
  localStorage.removeItem(KEY_STORAGE);
  localStorage.removeItem(WORKSPACE_STORAGE);
}

/**
 * A client for this page's own origin: the board is served by the server it talks to, so no CORS is
 * involved. The workspace travels as `X-Service-Workspace` (the contract's workspace resolution, step 1).
 */
export function trackerFor(apiKey: string, workspace?: string): Tracker {
  // Two retries, not four: an edit shown at once is rolled back within seconds when the server is away.
  return createTracker({
    baseUrl: window.location.origin,
    apiKey,
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
