import type { Schemas } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printJson, printTable, relativeTime, say } from "../../output.js";
import { SUBJECT_OPTIONS, subject } from "./subject.js";

export const spec = defineCommand({
  summary: "Issues completed since the last status update: material for the next one",
  args: [],
  options: SUBJECT_OPTIONS,
  examples: ["tracker updates candidates --project Launch"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const result = await deps.tracker.updates.candidates(subject(opts), deps.call);
  if (opts.json) return printJson(deps, result);
  if (deps.isTTY) {
    say(
      deps,
      `Completed since ${result.since.update ? "the last update" : "the start"}, ${relativeTime(result.since.at)}:`,
    );
    if (result.issues.length === 0) return say(deps, "Nothing completed since.");
  }
  printTable<Schemas["UpdateCandidate"]>(deps, result.issues, [
    { header: "ID", value: (i) => i.identifier, style: (_, c) => c.cyan },
    { header: "TITLE", value: (i) => i.title, flex: true },
    { header: "ASSIGNEE", value: (i) => i.assignee ?? "" },
    { header: "COMPLETED", value: (i) => i.completedAt, tty: (i) => relativeTime(i.completedAt) },
  ]);
}
