import type { Schemas } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts } from "../../command.js";
import { healthStyle, printList, relativeTime } from "../../output.js";
import { SUBJECT_OPTIONS, subject } from "./subject.js";

export const spec = defineCommand({
  summary: "List the status updates of a team, project or initiative, newest first",
  args: [],
  options: SUBJECT_OPTIONS,
  examples: ["tracker updates list --project Launch", "tracker updates list --team ENG --jq '.[0].content'"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const updates = await deps.tracker.updates.list(subject(opts), deps.call);
  await printList<Schemas["StatusUpdate"]>(
    deps,
    opts,
    updates,
    [
      { header: "ID", value: (u) => u.id, tty: (u) => u.id.slice(0, 8), style: (_, c) => c.gray },
      { header: "TITLE", value: (u) => u.title, flex: true, style: (_, c) => c.bold },
      {
        header: "HEALTH",
        value: (u) => u.health,
        tty: (u) => u.health.replace("_", " "),
        style: (u, c) => healthStyle(c, u.health),
      },
      { header: "BY", value: (u) => u.creator.name },
      { header: "POSTED", value: (u) => u.createdAt, tty: (u) => relativeTime(u.createdAt) },
    ],
    "No status updates yet.",
  );
}
