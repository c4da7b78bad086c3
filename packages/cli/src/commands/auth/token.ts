import { CommandError, type Deps, defineCommand, type Opts } from "../../command.js";
import { printJson } from "../../output.js";

export const spec = defineCommand({
  summary: "Print the API key commands use (for scripts: curl, the SDK)",
  args: [],
  options: {},
  api: false,
  examples: ['curl -H "Authorization: Bearer $(tracker auth token)" http://localhost:3000/api/v1/users'],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const { apiKey, baseUrl } = deps.connection;
  if (!apiKey) throw new CommandError(`not logged in to ${baseUrl}; run 'tracker auth login'`, 4);
  if (opts.json) return printJson(deps, { url: baseUrl, token: apiKey });
  deps.stdout.write(`${apiKey}\n`);
}
