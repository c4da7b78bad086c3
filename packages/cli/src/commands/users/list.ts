import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printJson, printTable } from "../../output.js";

export const spec = defineCommand({
  name: "users list",
  summary: "List the workspace's members",
  args: [],
  options: {},
  examples: ["tracker users list", "tracker users list --json | jq -r '.[] | select(.isMe) | .email'"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const users = await deps.tracker.users.list();
  if (opts.json) return printJson(deps, users);
  printTable(deps, users, [
    { header: "NAME", value: (u) => u.name, tty: (u) => (u.isMe ? `${u.name} (you)` : u.name) },
    { header: "EMAIL", value: (u) => u.email },
    { header: "ROLE", value: (u) => u.role },
  ]);
}
