import { type Deps, defineCommand, type Opts } from "../../command.js";
import { normalizeUrl } from "../../config.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Accept an invite link and log in with the key it gives you",
  description:
    "Needs no key: the link is the credential. You join with the invite's role and get an account key,\n" +
    "stored as your login for the server (unless --no-login, when the key is printed instead).",
  args: ["link"],
  options: {
    name: {
      type: "string",
      short: "n",
      value: "NAME",
      description: "Your name (required if you have no account yet)",
    },
    noLogin: { type: "boolean", description: "Print the key instead of storing it" },
  },
  api: false,
  examples: ['tracker invites accept http://localhost:3000/invite/abc123 --name "Ada Lovelace"'],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  let baseUrl = deps.connection.baseUrl;
  let token = opts.link;
  if (/^https?:\/\//.test(opts.link)) {
    const url = new URL(opts.link);
    token = url.pathname.split("/").filter(Boolean).pop() ?? "";
    if (!deps.env.TRACKER_URL) baseUrl = normalizeUrl(url.origin);
  }
  const anonymous = await deps.makeTracker({ ...deps.connection, baseUrl, apiKey: undefined });
  const accepted = await anonymous.invites.accept(
    { token, ...(opts.name ? { name: opts.name } : {}) },
    deps.call,
  );
  if (opts.json) return printJson(deps, accepted);
  if (opts.noLogin) {
    say(deps, `Joined ${accepted.workspace.name} as ${accepted.user.email}. Your API key (shown once):`);
    deps.stdout.write(`${accepted.apiKey.token}\n`);
    return;
  }
  const config = deps.config.read();
  config.servers[baseUrl] = {
    apiKey: accepted.apiKey.token,
    workspace: accepted.workspace.slug,
    user: accepted.user.email,
  };
  config.default = baseUrl;
  deps.config.write(config);
  say(deps, `Joined ${accepted.workspace.name} as ${accepted.user.email}; logged in to ${baseUrl}.`);
}
