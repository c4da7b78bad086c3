import type { Schemas } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, splitList } from "../../command.js";
import { printList, say } from "../../output.js";
import { userId } from "../../resolve.js";

export const spec = defineCommand({
  summary: "List a team's members, or add and remove them",
  args: ["team"],
  options: {
    add: {
      type: "string",
      multiple: true,
      value: "USER",
      description: "Add a workspace member (email, id or `me`); repeatable",
    },
    remove: {
      type: "string",
      multiple: true,
      value: "USER",
      description: "Remove a member (email, id or `me`); repeatable",
    },
  },
  examples: ["tracker teams members ENG", "tracker teams members ENG --add ada@example.com"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const key = opts.team.toUpperCase();
  for (const user of splitList(opts.add) ?? []) {
    await deps.tracker.teams.addMember(opts.team, user, deps.call);
    if (deps.isTTY) say(deps, `Added ${user} to ${key}`);
  }
  for (const user of splitList(opts.remove) ?? []) {
    await deps.tracker.teams.removeMember(
      opts.team,
      user === "me" ? "me" : await userId(deps, user),
      deps.call,
    );
    if (deps.isTTY) say(deps, `Removed ${user} from ${key}`);
  }
  const members = await deps.tracker.teams.members(opts.team, deps.call);
  await printList<Schemas["UserRef"]>(deps, opts, members, [
    { header: "NAME", value: (u) => u.name },
    { header: "EMAIL", value: (u) => u.email },
  ]);
}
