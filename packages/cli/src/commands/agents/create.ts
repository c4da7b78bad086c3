import type { BodyOf } from "@tracker/sdk";
import { API_KEY_ACCESS } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, required } from "../../command.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Add an agent to the workspace and print its key's token",
  description:
    "Admins only. The agent is an app user people delegate issues to and mention (@NAME); its token is shown " +
    "only once. --access limits what it may do (read, write: the default, admin).",
  args: [],
  options: {
    name: { type: "string", short: "n", value: "NAME", description: "How people mention it (required)" },
    access: {
      type: "string",
      value: "LEVEL",
      description: "read, write (default) or admin",
      choices: API_KEY_ACCESS,
    },
    avatar: { type: "string", value: "URL", description: "A picture for it (http or https)" },
  },
  examples: [
    "tracker agents create --name triage-bot",
    "export TRACKER_API_KEY=$(tracker agents create --name triage-bot --access write)",
  ],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const body: BodyOf<"createAgent"> = {
    name: await required(deps, "name", opts.name, () => deps.prompt.input("Agent name")),
  };
  if (opts.access) body.access = opts.access as NonNullable<BodyOf<"createAgent">["access"]>;
  if (opts.avatar) body.avatarUrl = opts.avatar;
  const agent = await deps.tracker.agents.create(body, deps.call);
  if (opts.json) return printJson(deps, agent);
  if (deps.isTTY)
    say(
      deps,
      `Added agent "${agent.name}" with ${agent.access} access. Save the token now; it is not shown again.`,
    );
  deps.stdout.write(`${agent.token}\n`);
}
