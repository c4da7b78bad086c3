import { CommandError, type Deps, defineCommand, type Opts } from "../../command.js";
import { printJson, say } from "../../output.js";
import { revokeStored } from "./web-login.js";

export const spec = defineCommand({
  summary: "Forget the stored key of a server (the default one, or --url)",
  description:
    "A key keeps working until it is revoked: 'tracker keys delete' does that. A login made with --web is\n" +
    "revoked at the server as well (its refresh token, and with it the access it gave).",
  args: [],
  options: {},
  api: false,
  examples: ["tracker auth logout", "tracker auth logout --url https://tracker.example.com"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const config = deps.config.read();
  const url = deps.connection.baseUrl;
  const entry = config.servers[url];
  if (!entry) throw new CommandError(`not logged in to ${url}`);
  // Best effort: an unreachable server still lets the login be forgotten here.
  const revoked = entry.oauth ? await revokeStored(entry.oauth, entry.apiKey) : false;
  delete config.servers[url];
  if (config.default === url) {
    const next = Object.keys(config.servers)[0];
    if (next) config.default = next;
    else delete config.default;
  }
  deps.config.write(config);
  if (opts.json) return printJson(deps, { url, default: config.default ?? null });
  if (entry.oauth && !revoked)
    say(deps, "Warning: the server could not be told; the login may stay valid until it expires.");
  say(deps, `Logged out of ${url}.${config.default ? ` The default server is now ${config.default}.` : ""}`);
}
