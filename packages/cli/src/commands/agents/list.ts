import type { Schemas } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printList, relativeTime } from "../../output.js";

export const spec = defineCommand({
  summary: "List the workspace's agents",
  description:
    "Agents are app users: delegate an issue to one (`tracker issues delegate`) or mention it in a comment (@name).",
  args: [],
  options: {},
  examples: ["tracker agents list"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const agents = await deps.tracker.agents.list(deps.call);
  await printList<Schemas["Agent"]>(deps, opts, agents, [
    { header: "ID", value: (a) => a.id, style: (_, c) => c.gray },
    { header: "NAME", value: (a) => a.name, flex: true },
    { header: "ACCESS", value: (a) => a.access },
    { header: "CREATED", value: (a) => a.createdAt, tty: (a) => relativeTime(a.createdAt) },
  ]);
}
