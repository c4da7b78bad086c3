import type { Schemas } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printList, relativeTime } from "../../output.js";

export const spec = defineCommand({
  summary: "List the workspace's pending invites",
  args: [],
  options: {},
  examples: ["tracker invites list"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const invites = await deps.tracker.invites.list(deps.call);
  await printList<Schemas["Invite"]>(
    deps,
    opts,
    invites,
    [
      { header: "EMAIL", value: (i) => i.email },
      { header: "ROLE", value: (i) => i.role },
      { header: "EXPIRES", value: (i) => i.expiresAt, tty: (i) => relativeTime(i.expiresAt) },
      { header: "ID", value: (i) => i.id, style: (_, c) => c.gray },
    ],
    "No pending invites.",
  );
}
