import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { createTracker, type Tracker, TrackerError } from "@tracker/sdk";
import { flag } from "./config.js";
import {
  challenge,
  metadataUrl,
  protectedResourceMetadata,
  type ResourceAuthOptions,
  TokenIntrospector,
} from "./resource-auth.js";
import type { MemberRole } from "./roles.js";
import { createTrackerServer, type TrackerServerOptions } from "./server.js";
import { parseTools, parseToolsets } from "./toolsets.js";
import { VERSION } from "./version.js";

export interface HttpServerOptions extends TrackerServerOptions {
  port: number;
  /** Bind address; loopback by default, so only this machine can reach the server. */
  host: string;
  /** Browser origins allowed besides localhost and loopback ones, e.g. `https://agent.example.com`. */
  allowedOrigins: string[];
  /** Tracker server URL; default `TRACKER_URL`. */
  trackerUrl?: string | undefined;
  /** Workspace for sessions that name none in `X-Service-Workspace`; default `TRACKER_WORKSPACE`. */
  workspace?: string | undefined;
  timeoutMs: number;
  /** A session with no request for this long is closed (its event stream too). Default 30 minutes. */
  sessionIdleMs?: number | undefined;
  /**
   * This endpoint's public URL, the OAuth resource tokens must be issued for (`TRACKER_MCP_PUBLIC_URL`);
   * default the address it listens at.
   */
  resource?: string | undefined;
  /** `--lockdown` for every session; a request's `X-Tracker-Lockdown` header can make it stricter. */
  lockdown?: "mark" | "drop" | undefined;
  /** The tracker's OAuth issuer (its public URL); default `trackerUrl`. */
  authorizationServer?: string | undefined;
  /**
   * What this endpoint introspects OAuth tokens with at the tracker: the server's
   * `TRACKER_OAUTH_INTROSPECTION_SECRET`; default that variable here.
   */
  introspectionSecret?: string | undefined;
}

export interface RunningHttpServer {
  /** e.g. `http://127.0.0.1:3333/mcp` */
  url: string;
  /** Open sessions. */
  sessions(): number;
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  /** What the session is bound to: the API key, or the OAuth grant (person and app) of its tokens. */
  keyHash: Buffer;
  /** The bearer token of the latest request, which every call sends: an OAuth client refreshes it over time. */
  bearer: { token: string };
  lastSeen: number;
}

const MAX_BODY = 4 * 1024 * 1024;
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

function hostnameOf(hostHeader: string): string {
  // `[::1]:3333` keeps its brackets; `localhost:3333` loses its port.
  return hostHeader.startsWith("[")
    ? hostHeader.slice(0, hostHeader.indexOf("]") + 1)
    : hostHeader.split(":")[0]!;
}

function sha256(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

function rpcError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new RangeError("body too large");
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? JSON.parse(text) : undefined;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(",") : value;
}

/**
 * The tools a session offers: the deployment's choice, or the one its initialize request makes with
 * `X-MCP-Toolsets` / `X-MCP-Tools`. `X-MCP-Readonly: true` narrows to
 * reads; no header widens past the deployment's `--read-only` or `--exclude-tools`. A bad name throws.
 */
export function sessionSelection(req: IncomingMessage, options: TrackerServerOptions): TrackerServerOptions {
  const toolsets = parseToolsets(header(req, "x-mcp-toolsets"));
  const tools = parseTools(header(req, "x-mcp-tools"));
  const chosen = toolsets !== undefined || tools !== undefined;
  return {
    ...options,
    ...(chosen ? { toolsets, tools } : {}),
    readOnly: options.readOnly || flag(header(req, "x-mcp-readonly")),
  };
}

/** The key's role in the session's workspace (`isMe` of the users list); unknown when that cannot be read. */
export async function roleOf(tracker: Tracker, timeoutMs: number): Promise<MemberRole | undefined> {
  try {
    const users = await tracker.users.list({ timeoutMs: Math.min(timeoutMs, 10_000) });
    return users.find((u) => u.isMe)?.role;
  } catch {
    return undefined;
  }
}

/**
 * Streamable HTTP at `/mcp`. Each session acts with the API key of the `Authorization` header that opened
 * it (its own SDK client), so one deployment serves a whole team with each person's rights; every later
 * request of the session must carry the same key. Requests from a browser origin other than localhost or
 * an allowed one are refused, and so, on a loopback bind, is a `Host` that is not loopback: together they
 * keep a web page (and DNS rebinding) from driving the server.
 */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const sessions = new Map<string, Session>();
  const allowedOrigins = new Set(options.allowedOrigins.map((o) => o.toLowerCase()));
  const checkHost = isLoopbackHost(options.host);

  function originAllowed(origin: string | undefined): boolean {
    if (origin === undefined) return true; // not a browser: no page can be behind it
    if (allowedOrigins.has(origin.toLowerCase())) return true;
    try {
      return isLoopbackHost(new URL(origin).hostname);
    } catch {
      return false;
    }
  }

  let resourceAuth: ResourceAuthOptions | undefined;
  let introspector: TokenIntrospector | undefined;

  async function openSession(
    apiKey: string,
    binding: string,
    req: IncomingMessage,
    chosen: TrackerServerOptions,
  ): Promise<Session> {
    const workspace = header(req, "x-service-workspace") ?? options.workspace;
    // Every call carries the session's latest token (`session.bearer`), set on each request.
    const bearer = { token: apiKey };
    const withToken: typeof fetch = (input, init) => {
      const request = new Request(input, init);
      request.headers.set("authorization", `Bearer ${bearer.token}`);
      return fetch(request);
    };
    const tracker = createTracker({
      apiKey,
      fetch: withToken,
      ...(options.trackerUrl ? { baseUrl: options.trackerUrl } : {}),
      // An empty string keeps TRACKER_WORKSPACE of the tool server's own environment out of the session.
      workspace: workspace ?? "",
      timeoutMs: options.timeoutMs,
      userAgent: `tracker-mcp/${VERSION}`,
    });
    const role = await roleOf(tracker, options.timeoutMs);
    const server = createTrackerServer(
      { tracker, timeoutMs: options.timeoutMs, lockdown: options.lockdown },
      { ...chosen, role },
    );
    const session: Session = {
      server,
      keyHash: sha256(binding),
      bearer,
      lastSeen: Date.now(),
      transport: new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (id) => {
          sessions.set(id, session);
        },
      }),
    };
    // The server's own close handling (and the subscriptions' stream) runs after this one.
    session.transport.onclose = () => {
      if (session.transport.sessionId) sessions.delete(session.transport.sessionId);
    };
    await server.connect(session.transport);
    return session;
  }

  /** 401 with `WWW-Authenticate` naming the resource metadata (MCP authorization, RFC 9728 section 5.1). */
  function unauthorized(res: ServerResponse, message: string, error?: { code: string; description: string }) {
    return rpcError(res, 401, message, { "www-authenticate": challenge(resourceAuth!, error) });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://localhost");
    const metadataPath = new URL(metadataUrl(resourceAuth!.resource)).pathname;
    if (url.pathname === metadataPath || url.pathname === "/.well-known/oauth-protected-resource") {
      // Public, and read by browser-based clients too.
      res.writeHead(req.method === "GET" ? 200 : 405, {
        "content-type": "application/json",
        "access-control-allow-origin": "*",
      });
      return void res.end(JSON.stringify(protectedResourceMetadata(resourceAuth!)));
    }
    if (url.pathname !== "/mcp") return rpcError(res, 404, "Not found: the MCP endpoint is /mcp.");
    const origin = req.headers.origin;
    if (!originAllowed(origin))
      return rpcError(
        res,
        403,
        `Origin ${origin} is not allowed; start tracker-mcp with --allowed-origins to allow it.`,
      );
    if (checkHost && !isLoopbackHost(hostnameOf(req.headers.host ?? "")))
      return rpcError(res, 403, `Host ${req.headers.host} is not allowed on a loopback server.`);

    const auth = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "");
    if (!auth)
      return unauthorized(
        res,
        "Send a Tracker API key (`Authorization: Bearer trk_…`) or an OAuth access token.",
      );
    const apiKey = auth[1]!;
    // An API key is the key's; any other bearer token must be an access token issued for this resource.
    let binding = apiKey;
    /** A token that may only read: its session offers the tools that change nothing, as `--read-only` does. */
    let readsOnly = false;
    if (!apiKey.startsWith("trk_")) {
      const info = await introspector!.check(apiKey);
      if (!info)
        return unauthorized(
          res,
          "The access token is not valid here: unknown, expired, revoked or for another resource.",
          {
            code: "invalid_token",
            description: "The access token is not active or was not issued for this resource.",
          },
        );
      binding = `oauth:${info.subject}`;
      const scopes = info.scope.split(" ");
      readsOnly = !scopes.includes("write") && !scopes.includes("admin");
    }

    let body: unknown;
    if (req.method === "POST") {
      try {
        body = await readJson(req);
      } catch (err) {
        return err instanceof RangeError
          ? rpcError(res, 413, "The request body is over 4 MiB.")
          : rpcError(res, 400, "The request body is not valid JSON.");
      }
    }

    const sessionId = req.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const session = sessions.get(sessionId);
      if (!session) return rpcError(res, 404, "Unknown or closed session: initialize a new one.");
      const given = sha256(binding);
      if (!timingSafeEqual(given, session.keyHash))
        return rpcError(res, 403, "This session belongs to another API key.");
      session.lastSeen = Date.now();
      session.bearer.token = apiKey;
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method === "POST" && isInitializeRequest(body)) {
      // A rejected key is told now, as HTTP 401, rather than on every tool call of the session.
      const check = await createTracker({ apiKey, baseUrl: options.trackerUrl, timeoutMs: options.timeoutMs })
        .workspaces.list()
        .catch((err: unknown) => err);
      if (check instanceof TrackerError && (check.code === "unauthenticated" || check.code === "key_expired"))
        return unauthorized(res, `The Tracker server refused this API key: ${check.detail}`, {
          code: "invalid_token",
          description: check.detail,
        });
      let chosen: TrackerServerOptions;
      try {
        chosen = sessionSelection(req, options);
        if (readsOnly) chosen = { ...chosen, readOnly: true };
      } catch (err) {
        return rpcError(res, 400, (err as Error).message);
      }
      const session = await openSession(apiKey, binding, req, chosen);
      return session.transport.handleRequest(req, res, body);
    }
    return rpcError(res, 400, "No session: start with an initialize request (without Mcp-Session-Id).");
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent)
        rpcError(res, 500, `Internal error: ${err instanceof Error ? err.message : String(err)}`);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port, options.host, () => resolve());
  });
  // Clients that vanish without DELETE leave sessions behind: close those idle too long.
  const idleMs = options.sessionIdleMs ?? 30 * 60_000;
  const sweep = setInterval(
    () => {
      const cutoff = Date.now() - idleMs;
      for (const session of sessions.values())
        if (session.lastSeen < cutoff) void session.transport.close().catch(() => {});
    },
    Math.min(60_000, Math.max(50, idleMs / 2)),
  );
  sweep.unref();
  const address = http.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  resourceAuth = {
    resource: options.resource ?? `http://${host}:${address.port}/mcp`,
    authorizationServer: (
      options.authorizationServer ??
      options.trackerUrl ??
      process.env.TRACKER_URL ??
      "http://localhost:3000"
    ).replace(/\/$/, ""),
    introspectionSecret:
      options.introspectionSecret ?? (process.env.TRACKER_OAUTH_INTROSPECTION_SECRET || undefined),
  };
  introspector = new TokenIntrospector(resourceAuth);
  return {
    url: `http://${host}:${address.port}/mcp`,
    sessions: () => sessions.size,
    close: async () => {
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map((s) => s.transport.close().catch(() => {})));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
