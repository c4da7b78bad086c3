import { CommandError, type Deps, defineCommand, type Opts } from "../../command.js";
import { palette, printJson, printTable, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Show the servers you are logged in to, and check their keys",
  description: "Exits 4 when the server commands would use has no working key, 3 when it cannot be reached.",
  args: [],
  options: {},
  api: false,
  examples: ["tracker auth status"],
});

interface Row {
  url: string;
  default: boolean;
  source: string;
  user: string;
  workspace: string;
  status: "ok" | "invalid key" | "unreachable" | "no key";
  detail?: string;
}

async function check(deps: Deps, url: string, apiKey: string | undefined, workspace: string | undefined) {
  if (!apiKey) return { status: "no key" as const };
  try {
    const tracker = await deps.makeTracker({ ...deps.connection, baseUrl: url, apiKey, workspace });
    const workspaces = await tracker.workspaces.list(deps.call);
    const me = await tracker.users
      .list(deps.call)
      .then((users) => users.find((u) => u.isMe))
      .catch(() => undefined);
    return {
      status: "ok" as const,
      user: me?.email,
      workspace: workspace ?? workspaces.find((w) => w.isActive)?.slug,
    };
  } catch (err) {
    const e = err as { name?: string; status?: number; message?: string };
    if (e.name === "TrackerError" && e.status === 401) return { status: "invalid key" as const };
    if (e.name === "TrackerError") return { status: "ok" as const, detail: e.message };
    return { status: "unreachable" as const, detail: e.message };
  }
}

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const config = deps.config.read();
  const { connection } = deps;
  const urls = new Set(Object.keys(config.servers));
  urls.add(connection.baseUrl);
  const rows: Row[] = [];
  for (const url of urls) {
    const stored = config.servers[url];
    const current = url === connection.baseUrl;
    const apiKey = current ? connection.apiKey : stored?.apiKey;
    const workspace = current ? connection.workspace : stored?.workspace;
    if (!apiKey && !current) continue;
    const result = await check(deps, url, apiKey, workspace);
    rows.push({
      url,
      default: current,
      source: current && connection.keySource === "env" ? "TRACKER_API_KEY" : apiKey ? "login" : "",
      user: ("user" in result && result.user) || stored?.user || "",
      workspace: ("workspace" in result && result.workspace) || "",
      status: result.status,
      ...("detail" in result && result.detail ? { detail: result.detail } : {}),
    });
  }
  if (opts.json) await printJson(deps, { configFile: deps.config.file, servers: rows });
  else {
    const c = palette(deps);
    printTable(deps, rows, [
      { header: "", value: (r) => (r.default ? "*" : ""), style: (_, p) => p.green },
      { header: "SERVER", value: (r) => r.url },
      { header: "USER", value: (r) => r.user },
      { header: "WORKSPACE", value: (r) => r.workspace },
      { header: "KEY FROM", value: (r) => r.source },
      { header: "STATUS", value: (r) => r.status, style: (r) => (r.status === "ok" ? c.green : c.red) },
    ]);
    if (deps.isTTY) say(deps, `Logins are kept in ${deps.config.file}; * marks the server commands use.`);
  }
  const used = rows.find((r) => r.default)!;
  if (used.status === "no key") {
    throw new CommandError(`not logged in to ${used.url}; run 'tracker auth login'`, 4);
  }
  if (used.status === "invalid key") {
    throw new CommandError(`the key for ${used.url} is not accepted; run 'tracker auth login' again`, 4);
  }
  if (used.status === "unreachable") {
    throw new CommandError(`cannot reach ${used.url}: ${used.detail ?? ""}`, 3);
  }
}
