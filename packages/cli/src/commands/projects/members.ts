import type { Schemas } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, splitList } from "../../command.js";
import { printList, say } from "../../output.js";
import { userId } from "../../resolve.js";

export const spec = defineCommand({
  summary: "List a project's members, or add and remove them",
  description:
    "Members added here reach the project on top of its teams' members (how a guest sees one project).",
  args: ["project"],
  options: {
    add: {
      type: "string",
      multiple: true,
      value: "USER",
      description: "Add a member (email, id or `me`); repeatable",
    },
    remove: {
      type: "string",
      multiple: true,
      value: "USER",
      description: "Remove a member (email, id or `me`); repeatable",
    },
  },
  examples: [
    "tracker projects members Launch",
    "tracker projects members Launch --add ada@example.com --remove me",
  ],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  for (const user of splitList(opts.add) ?? []) {
    await deps.tracker.projects.addMember(opts.project, { user }, deps.call);
    if (deps.isTTY) say(deps, `Added ${user} to ${opts.project}`);
  }
  for (const user of splitList(opts.remove) ?? []) {
    await deps.tracker.projects.removeMember(opts.project, await userId(deps, user), deps.call);
    if (deps.isTTY) say(deps, `Removed ${user} from ${opts.project}`);
  }
  const members = await deps.tracker.projects.members(opts.project, deps.call);
  await printList<Schemas["UserRef"]>(
    deps,
    opts,
    members,
    [
      { header: "NAME", value: (u) => u.name },
      { header: "EMAIL", value: (u) => u.email },
    ],
    "No members besides the teams' members.",
  );
}
