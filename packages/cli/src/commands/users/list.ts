import type { Schemas } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printList } from "../../output.js";

export const spec = defineCommand({
  summary: "List the workspace's members",
  args: [],
  options: {},
  examples: ["tracker users list", "tracker users list --jq '.[] | select(.isMe) | .email'"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const users = await deps.tracker.users.list(deps.call);
  await printList<Schemas["User"]>(deps, opts, users, [
    { header: "NAME", value: (u) => u.name, tty: (u) => (u.isMe ? `${u.name} (you)` : u.name) },
    { header: "EMAIL", value: (u) => u.email },
    {
      header: "ROLE",
      value: (u) => u.role,
      style: (u, c) => (u.role === "admin" ? c.yellow : u.role === "guest" ? c.gray : (t) => t),
    },
  ]);
}
