import { CommandError, type Deps, defineCommand, type Opts } from "../../command.js";
import { printJson, say } from "../../output.js";
import { RELATION_TYPES } from "./relate.js";

export const spec = defineCommand({
  summary: "Remove the relations between two issues",
  description: "Without --type every relation between the two goes; with it, only that one.",
  args: ["id", "other"],
  options: {
    type: { type: "string", value: "TYPE", description: "Only this relation", choices: RELATION_TYPES },
  },
  examples: ["tracker issues unrelate ENG-1 ENG-2", "tracker issues unrelate ENG-1 ENG-2 --type blocks"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const relations = await deps.tracker.issues.relations(opts.id, deps.call);
  const other = opts.other.toUpperCase();
  const wanted = opts.type?.replace("-", "_");
  const matching = relations.filter(
    (r) => r.issue.identifier.toUpperCase() === other && (wanted === undefined || r.type === wanted),
  );
  if (matching.length === 0) {
    throw new CommandError(
      `${opts.id.toUpperCase()} has no ${opts.type ? `${opts.type} ` : ""}relation to ${other}`,
    );
  }
  for (const relation of matching) await deps.tracker.issues.deleteRelation(opts.id, relation.id, deps.call);
  if (opts.json) return printJson(deps, matching);
  for (const r of matching)
    say(deps, `Removed: ${opts.id.toUpperCase()} ${r.type.replace("_", " ")} ${other}`);
}
