import createClient from "openapi-fetch";
import type { paths } from "./generated/schema.js";
import { type CallOptions, type Http, type RawClient, unwrap } from "./http.js";
import type { QueryOf, ResponseOf } from "./operation-types.js";
import { AccountApi } from "./resources/account.js";
import { AgentSessionsApi, AgentsApi } from "./resources/agents.js";
import { ApiKeysApi } from "./resources/api-keys.js";
import { CommentsApi } from "./resources/comments.js";
import { CyclesApi } from "./resources/cycles.js";
import { DocumentsApi } from "./resources/documents.js";
import { EventsApi } from "./resources/events.js";
import { InboxApi } from "./resources/inbox.js";
import { InitiativesApi } from "./resources/initiatives.js";
import { InvitesApi } from "./resources/invites.js";
import { IssuesApi } from "./resources/issues.js";
import { LabelsApi } from "./resources/labels.js";
import { MembersApi } from "./resources/members.js";
import { ProjectsApi } from "./resources/projects.js";
import { TeamsApi } from "./resources/teams.js";
import { UpdatesApi } from "./resources/updates.js";
import { UsersApi } from "./resources/users.js";
import { ViewDefaultsApi } from "./resources/view-defaults.js";
import { ViewsApi } from "./resources/views.js";
import { WebhooksApi } from "./resources/webhooks.js";
import { WorkspacesApi } from "./resources/workspaces.js";
import { describeResponse, type RequestHooks, type ResponseInfo } from "./response.js";
import { DEFAULT_TIMEOUT_MS, retryingFetch } from "./retry.js";
import { revalidatingFetch } from "./revalidate.js";
import { SDK_VERSION } from "./version.js";

export interface TrackerOptions extends RequestHooks {
  /** Server origin; `/api/v1` is appended. Default: `TRACKER_URL`, else `http://localhost:3000`. */
  baseUrl?: string | undefined;
  /** A `trk_…` API key, sent as `Authorization: Bearer`. Default: `TRACKER_API_KEY`. */
  apiKey?: string | undefined;
  /** Workspace slug, name or id, sent as `X-Service-Workspace` on every call. Default: `TRACKER_WORKSPACE`. */
  workspace?: string | undefined;
  /**
   * The fetch to use (default: the global one); inject one in tests. It is always called with one
   * `Request`, so the global `fetch` and a plain `(request) => Promise<Response>` both fit.
   */
  fetch?: ((request: Request) => Promise<Response>) | undefined;
  /** How many times a failed call may be retried (see the README's retry policy). Default 2. */
  maxRetries?: number | undefined;
  /**
   * How long in all, in ms, a call may wait on a server that answers 503 `service_unavailable` with
   * `Retry-After` (its database restarting, or the instance draining), beyond `maxRetries`. Default 30 000.
   */
  maxUnavailableWaitMs?: number | undefined;
  /** Time limit of each attempt in ms, unless a call sets its own; 0 turns it off. Default 30 000. */
  timeoutMs?: number | undefined;
  /**
   * Headers sent with every request, the upload that reports its progress by `XMLHttpRequest` included
   * (which goes past `fetch`): a page signed in with the session cookie sends its `X-Requested-With`
   * here (the contract's "Sessions").
   */
  headers?: Record<string, string> | undefined;
  /**
   * Sent as `User-Agent`. Default `tracker-sdk/<version> node/<version>`; none in a browser, which sends
   * its own (the API's CORS rules do not allow the header, so a page setting it would be refused).
   */
  userAgent?: string | undefined;
  /**
   * Whether reads are revalidated: the client keeps each read's `ETag` and body and asks with
   * `If-None-Match`, so an unchanged answer costs the server a 304 (the contract's "Conditional
   * requests"). Default true.
   */
  revalidate?: boolean | undefined;
}

/** A configured Tracker API client: one namespace per resource, plus `raw` for anything else. */
export interface Tracker {
  /** The underlying openapi-fetch client, with the same headers and retries; it returns errors instead of throwing. */
  raw: RawClient;
  /**
   * The answer of the call that completed last (any method, error answers too): request id, status,
   * workspace, attempts, rate-limit state. With calls running at once, prefer `responseOf(result)`.
   */
  readonly lastResponse: ResponseInfo | undefined;
  workspaces: WorkspacesApi;
  users: UsersApi;
  members: MembersApi;
  apiKeys: ApiKeysApi;
  /** The caller's own account: name, password, sessions, apps authorised, notification e-mail. */
  account: AccountApi;
  invites: InvitesApi;
  teams: TeamsApi;
  issues: IssuesApi;
  comments: CommentsApi;
  projects: ProjectsApi;
  initiatives: InitiativesApi;
  cycles: CyclesApi;
  labels: LabelsApi;
  documents: DocumentsApi;
  updates: UpdatesApi;
  views: ViewsApi;
  viewDefaults: ViewDefaultsApi;
  events: EventsApi;
  webhooks: WebhooksApi;
  inbox: InboxApi;
  /** The workspace's agents: app users that are delegated issues and mentioned. */
  agents: AgentsApi;
  /** Agents' sessions on issues: their activities, people's replies, the stop signal. */
  agentSessions: AgentSessionsApi;
  /**
   * What others did on the caller's issues, newest first (default: the last 14 days).
   *
   * @example
   * for (const e of await tracker.digest({ limit: 20 })) console.log(e.type, e.issue.identifier);
   */
  digest(query?: QueryOf<"getDigest">, options?: CallOptions): Promise<ResponseOf<"getDigest">["events"]>;
}

function env(name: string): string | undefined {
  // Guarded so the SDK also loads where `process` does not exist (browsers, edge runtimes).
  return typeof process === "undefined" ? undefined : process.env[name] || undefined;
}

function apiBaseUrl(origin: string): string {
  const trimmed = origin.replace(/\/+$/, "");
  return trimmed.endsWith("/api/v1") ? trimmed : `${trimmed}/api/v1`;
}

/**
 * Creates a Tracker API client. Every option falls back to an environment variable, so scripts run
 * with `TRACKER_URL`, `TRACKER_API_KEY` and `TRACKER_WORKSPACE` need no arguments.
 *
 * @example
 * import { createTracker } from "@tracker/sdk";
 * const tracker = createTracker({ baseUrl: "https://tracker.example.com", apiKey: process.env.TRACKER_API_KEY });
 * const { items } = await tracker.issues.list({ team: "ENG", special: ["overdue"] });
 */
export function createTracker(options: TrackerOptions = {}): Tracker {
  const baseUrl = apiBaseUrl(options.baseUrl ?? env("TRACKER_URL") ?? "http://localhost:3000");
  const apiKey = options.apiKey ?? env("TRACKER_API_KEY");
  const workspace = options.workspace ?? env("TRACKER_WORKSPACE");
  const nodeVersion = typeof process === "undefined" ? undefined : process.versions?.node;
  // A browser page's request is cross-origin: a header outside the contract's CORS list fails its preflight.
  const inBrowser = typeof (globalThis as { document?: unknown }).document !== "undefined";
  const userAgent =
    options.userAgent ??
    (inBrowser ? undefined : `tracker-sdk/${SDK_VERSION}${nodeVersion ? ` node/${nodeVersion}` : ""}`);
  // Resolved per call, not captured, so a test can still stub the global fetch after creating the client.
  const givenFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const baseFetch =
    options.revalidate === false ? givenFetch : revalidatingFetch((request) => givenFetch(request));

  const retrying = retryingFetch({
    fetch: (request) => baseFetch(request),
    maxRetries: options.maxRetries ?? 2,
    ...(options.maxUnavailableWaitMs === undefined
      ? {}
      : { maxUnavailableWaitMs: options.maxUnavailableWaitMs }),
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    hooks: { onRequest: options.onRequest, onResponse: options.onResponse, onError: options.onError },
  });
  let last: Response | undefined;
  const send: typeof retrying = async (request, call) => {
    const response = await retrying(request, call);
    last = response;
    return response;
  };
  const raw = createClient<paths>({
    baseUrl,
    headers: {
      ...options.headers,
      ...(userAgent ? { "User-Agent": userAgent } : {}),
      ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}),
      ...(workspace ? { "X-Service-Workspace": workspace } : {}),
    },
    // The contract declares list filters as `style: form, explode: false`: special=overdue,blocked.
    querySerializer: { array: { style: "form", explode: false } },
    // openapi-fetch passes a second argument of its own; the default settings apply to raw calls.
    fetch: (request) => send(request),
  });
  const http: Http = {
    raw,
    init: (call = {}, once = false) => ({
      ...(call.signal ? { signal: call.signal } : {}),
      ...(call.headers ? { headers: call.headers } : {}),
      fetch: (request) =>
        send(request, { timeoutMs: call.timeoutMs, idempotencyKey: call.idempotencyKey, once }),
    }),
  };

  return {
    raw,
    get lastResponse() {
      return last && describeResponse(last);
    },
    workspaces: new WorkspacesApi(http),
    users: new UsersApi(http),
    members: new MembersApi(http),
    apiKeys: new ApiKeysApi(http),
    account: new AccountApi(http),
    invites: new InvitesApi(http),
    teams: new TeamsApi(http),
    issues: new IssuesApi(http),
    comments: new CommentsApi(http),
    projects: new ProjectsApi(http),
    initiatives: new InitiativesApi(http),
    cycles: new CyclesApi(http),
    labels: new LabelsApi(http),
    documents: new DocumentsApi(http),
    updates: new UpdatesApi(http),
    views: new ViewsApi(http),
    viewDefaults: new ViewDefaultsApi(http),
    events: new EventsApi(http),
    webhooks: new WebhooksApi(http),
    agents: new AgentsApi(http),
    agentSessions: new AgentSessionsApi(http),
    inbox: new InboxApi(http),
    digest: async (query = {}, options) =>
      (await unwrap(raw.GET("/my/digest", { params: { query }, ...http.init(options) }))).events,
  };
}
