import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printJson, say } from "../../output.js";

export const RELATION_TYPES = ["related", "blocks", "blocked-by", "duplicate", "duplicated-by"] as const;

export const spec = defineCommand({
  summary: "Relate an issue to another: related, blocks, blocked-by, duplicate, duplicated-by",
  description:
    "Reads as a sentence: `tracker issues relate ENG-1 ENG-2 --type blocks` means ENG-1 blocks ENG-2.",
  args: ["id", "other"],
  options: {
    type: {
      type: "string",
      value: "TYPE",
      description: "How the first relates to the second (default related)",
      choices: RELATION_TYPES,
    },
  },
  examples: [
    "tracker issues relate ENG-1 ENG-2 --type blocks",
    "tracker issues relate ENG-7 ENG-3 --type duplicate",
  ],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const type = (opts.type ?? "related") as (typeof RELATION_TYPES)[number];
  // The contract records relations from the path issue's side: the reversed types are sent from the other.
  const [from, to, sent] =
    type === "blocked-by"
      ? [opts.other, opts.id, "blocks" as const]
      : type === "duplicated-by"
        ? [opts.other, opts.id, "duplicate" as const]
        : [opts.id, opts.other, type];
  const relation = await deps.tracker.issues.addRelation(from, { issue: to, type: sent }, deps.call);
  if (opts.json) return printJson(deps, relation);
  say(deps, `${opts.id.toUpperCase()} ${type.replace("-", " ")} ${opts.other.toUpperCase()}`);
  deps.stdout.write(`${relation.id}\n`);
}
