import { parseArgs } from "node:util";
import { DEFAULT_TIMEOUT_MS } from "./deps.js";
import { type LockdownMode, parseLockdown } from "./lockdown.js";
import { parseTools, parseToolsets, TOOLSET_NAMES, TOOLSETS, type ToolsetName } from "./toolsets.js";

/** How `tracker-mcp` runs, from its flags and, for what they leave unset, its environment. */
export interface Config {
  toolsets: ToolsetName[] | undefined;
  tools: string[] | undefined;
  excludeTools: string[] | undefined;
  readOnly: boolean;
  dynamic: boolean;
  timeoutMs: number;
  http: boolean;
  port: number;
  host: string;
  allowedOrigins: string[];
  /** The public URL of the HTTP endpoint, the OAuth resource its tokens are issued for; default its address. */
  resource: string | undefined;
  /** `--lockdown`: text by guests and the code host fenced as untrusted (`mark`) or left out (`drop`). */
  lockdown: LockdownMode | undefined;
}

export const USAGE = `Usage: tracker-mcp [options]

Serves Tracker to agents over the Model Context Protocol: stdio by default, Streamable HTTP with --http.

Options (each has an environment variable; the flag wins):
  --toolsets <list>         Toolsets to offer, comma-separated, or "all"  (TRACKER_TOOLSETS; default: issues,context)
                            ${TOOLSET_NAMES.map((n) => `${n}: ${TOOLSETS[n].description}`).join("\n                            ")}
  --tools <list>            Single tools to offer besides the toolsets     (TRACKER_TOOLS)
  --exclude-tools <list>    Tools never to offer, whatever names them      (TRACKER_EXCLUDE_TOOLS)
  --read-only               Offer only tools that change nothing           (TRACKER_READ_ONLY=1)
  --dynamic                 Start with list_toolsets and enable_toolset    (TRACKER_DYNAMIC=1)
  --lockdown[=drop]         Fence text by guests and the code host as      (TRACKER_LOCKDOWN=1|drop)
                            untrusted; =drop leaves it out. Over HTTP also
                            per request: X-Tracker-Lockdown: 1 or drop
  --timeout <ms>            Time limit of each call to the Tracker server  (TRACKER_TIMEOUT_MS; default 30000)
  --http                    Serve Streamable HTTP at /mcp instead of stdio
  --port <n>                HTTP port                                      (TRACKER_MCP_PORT; default 3333)
  --host <address>          HTTP bind address                              (default 127.0.0.1)
  --allowed-origins <list>  Browser origins allowed besides localhost      (TRACKER_ALLOWED_ORIGINS)
  --public-url <url>        The endpoint's public URL, the OAuth resource  (TRACKER_MCP_PUBLIC_URL; default its address)
  -h, --help                Show this help
  -v, --version             Show the version

Tracker connection: TRACKER_URL (default http://localhost:3000); over stdio TRACKER_API_KEY and
TRACKER_WORKSPACE; over HTTP each session's own \`Authorization: Bearer trk_…\` header, or an OAuth
access token from the Tracker server issued for this endpoint (MCP authorization: metadata at
/.well-known/oauth-protected-resource/mcp; list the endpoint in the server's TRACKER_OAUTH_RESOURCES and
give both the server's TRACKER_OAUTH_INTROSPECTION_SECRET), (and optional
\`X-Service-Workspace\`), TRACKER_WORKSPACE as the default workspace. Over HTTP a session's initialize
request may choose its own tools with X-MCP-Toolsets, X-MCP-Tools and X-MCP-Readonly (never past
--read-only or --exclude-tools). Tools the key's role may not use are not offered.`;

export class UsageError extends Error {
  override name = "UsageError";
}

export function flag(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value.trim());
}

function positiveInt(value: string, what: string): number {
  if (!/^\d+$/.test(value.trim())) throw new UsageError(`${what} must be a whole number, not "${value}"`);
  return Number(value);
}

function parseFlags(argv: string[]) {
  try {
    return parseArgs({
      // `--lockdown` alone means its first mode, as `--lockdown=mark`.
      args: argv.map((a) => (a === "--lockdown" ? "--lockdown=mark" : a)),
      strict: true,
      options: {
        toolsets: { type: "string" },
        tools: { type: "string" },
        "exclude-tools": { type: "string" },
        "read-only": { type: "boolean" },
        dynamic: { type: "boolean" },
        lockdown: { type: "string" },
        timeout: { type: "string" },
        http: { type: "boolean" },
        port: { type: "string" },
        host: { type: "string" },
        "allowed-origins": { type: "string" },
        "public-url": { type: "string" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "v" },
      },
    }).values;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** Reads the command line and environment; a bad value throws `UsageError` with what to fix. */
export function readConfig(
  argv: string[],
  env: NodeJS.ProcessEnv,
): { config: Config; help: boolean; version: boolean } {
  const values = parseFlags(argv);
  let toolsets: ToolsetName[] | undefined;
  let tools: string[] | undefined;
  let excludeTools: string[] | undefined;
  try {
    toolsets = parseToolsets(values.toolsets ?? env.TRACKER_TOOLSETS);
    tools = parseTools(values.tools ?? env.TRACKER_TOOLS);
    excludeTools = parseTools(values["exclude-tools"] ?? env.TRACKER_EXCLUDE_TOOLS);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  let lockdown: LockdownMode | undefined;
  try {
    lockdown = parseLockdown(values.lockdown ?? env.TRACKER_LOCKDOWN);
  } catch (err) {
    throw new UsageError(`--lockdown: ${(err as Error).message}`);
  }
  const timeout = values.timeout ?? env.TRACKER_TIMEOUT_MS;
  const port = values.port ?? env.TRACKER_MCP_PORT;
  const config: Config = {
    toolsets,
    tools,
    excludeTools,
    readOnly: values["read-only"] ?? flag(env.TRACKER_READ_ONLY),
    dynamic: values.dynamic ?? flag(env.TRACKER_DYNAMIC),
    timeoutMs: timeout === undefined ? DEFAULT_TIMEOUT_MS : positiveInt(timeout, "--timeout"),
    http: values.http ?? false,
    port: port === undefined ? 3333 : positiveInt(port, "--port"),
    host: values.host ?? "127.0.0.1",
    allowedOrigins: (values["allowed-origins"] ?? env.TRACKER_ALLOWED_ORIGINS ?? "")
      .split(",")
      .map((o) => o.trim().replace(/\/+$/, ""))
      .filter(Boolean),
    resource: values["public-url"] ?? env.TRACKER_MCP_PUBLIC_URL ?? undefined,
    lockdown,
  };
  return { config, help: values.help ?? false, version: values.version ?? false };
}
