import type { BodyOf } from "@tracker/sdk";
import { API_KEY_ACCESS, API_KEY_SCOPES } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, required, UsageError } from "../../command.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Create an API key and print its token",
  description:
    "The token is shown only once. A workspace key reaches this workspace; an account key every one of yours. " +
    "--access limits what it may do (read, write, admin: the default, everything your role allows); " +
    "--expires ends it after a while (30d, 12h, 2w) or at a date.",
  args: [],
  options: {
    name: { type: "string", short: "n", value: "NAME", description: "What the key is for (required)" },
    scope: {
      type: "string",
      value: "SCOPE",
      description: "workspace (default) or account",
      choices: API_KEY_SCOPES,
    },
    access: {
      type: "string",
      value: "LEVEL",
      description: "read, write or admin (default)",
      choices: API_KEY_ACCESS,
    },
    expires: {
      type: "string",
      value: "WHEN",
      description: "When it stops working: 30d, 12h, 2w or a date (default never)",
    },
  },
  examples: [
    'tracker keys create --name "CI"',
    'tracker keys create --name "dashboard" --access read --expires 30d',
    'export TRACKER_API_KEY=$(tracker keys create --name "laptop" --scope account)',
  ],
});

/** `30d`, `12h`, `2w` from now, or a date or time: the key's `expiresAt`. */
export function expiresAt(value: string, now = Date.now()): string {
  const after = /^(\d+)([hdw])$/.exec(value.trim());
  if (after) {
    const hours = Number(after[1]) * (after[2] === "h" ? 1 : after[2] === "d" ? 24 : 168);
    return new Date(now + hours * 3_600_000).toISOString();
  }
  const parsed = Date.parse(value);
  if (Number.isNaN(parsed))
    throw new UsageError(`invalid value "${value}" for --expires; expected 30d, 12h, 2w or a date`);
  return new Date(parsed).toISOString();
}

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const body: BodyOf<"createApiKey"> = { name: "" };
  if (opts.expires !== undefined) body.expiresAt = expiresAt(opts.expires);
  body.name = await required(deps, "name", opts.name, () => deps.prompt.input("Key name"));
  if (opts.scope) body.scope = opts.scope as BodyOf<"createApiKey">["scope"];
  if (opts.access) body.access = opts.access as BodyOf<"createApiKey">["access"];
  const key = await deps.tracker.apiKeys.create(body, deps.call);
  if (opts.json) return printJson(deps, key);
  if (deps.isTTY) {
    const until = key.expiresAt ? `, expiring ${key.expiresAt}` : "";
    say(
      deps,
      `Created ${key.scope} key "${key.name}" with ${key.access} access${until}. Save the token now; it is not shown again.`,
    );
  }
  deps.stdout.write(`${key.token}\n`);
}
