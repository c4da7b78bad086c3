import type { BodyOf } from "@tracker/sdk";
import { API_KEY_SCOPES } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, required } from "../../command.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Create an API key and print its token",
  description:
    "The token is shown only once. A workspace key reaches this workspace; an account key every one of yours.",
  args: [],
  options: {
    name: { type: "string", short: "n", value: "NAME", description: "What the key is for (required)" },
    scope: {
      type: "string",
      value: "SCOPE",
      description: "workspace (default) or account",
      choices: API_KEY_SCOPES,
    },
  },
  examples: [
    'tracker keys create --name "CI"',
    'export TRACKER_API_KEY=$(tracker keys create --name "laptop" --scope account)',
  ],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const name = await required(deps, "name", opts.name, () => deps.prompt.input("Key name"));
  const body: BodyOf<"createApiKey"> = { name };
  if (opts.scope) body.scope = opts.scope as BodyOf<"createApiKey">["scope"];
  const key = await deps.tracker.apiKeys.create(body, deps.call);
  if (opts.json) return printJson(deps, key);
  if (deps.isTTY)
    say(deps, `Created ${key.scope} key "${key.name}". Save the token now; it is not shown again.`);
  deps.stdout.write(`${key.token}\n`);
}
