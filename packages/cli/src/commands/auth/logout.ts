import { CommandError, type Deps, defineCommand, type Opts } from "../../command.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Forget the stored key of a server (the default one, or --url)",
  description: "The key itself keeps working until it is revoked: 'tracker keys delete' does that.",
  args: [],
  options: {},
  api: false,
  examples: ["tracker auth logout", "tracker auth logout --url https://tracker.example.com"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const config = deps.config.read();
  const url = deps.connection.baseUrl;
  if (!config.servers[url]) throw new CommandError(`not logged in to ${url}`);
  delete config.servers[url];
  if (config.default === url) {
    const next = Object.keys(config.servers)[0];
    if (next) config.default = next;
    else delete config.default;
  }
  deps.config.write(config);
  if (opts.json) return printJson(deps, { url, default: config.default ?? null });
  say(deps, `Logged out of ${url}.${config.default ? ` The default server is now ${config.default}.` : ""}`);
}
