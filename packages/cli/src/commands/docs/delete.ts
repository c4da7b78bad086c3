import { type Deps, defineCommand, type Opts } from "../../command.js";
import { confirmDeletion } from "../../input.js";
import { printJson, say } from "../../output.js";
import { documentId } from "./find.js";

export const spec = defineCommand({
  summary: "Delete a document",
  args: ["document"],
  options: {
    yes: { type: "boolean", short: "y", description: "Delete without asking (required without a terminal)" },
  },
  examples: ['tracker docs delete "Old runbook" --yes'],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const id = await documentId(deps, opts.document);
  await confirmDeletion(deps, opts.yes, `document ${opts.document}`);
  await deps.tracker.documents.delete(id, deps.call);
  if (opts.json) return printJson(deps, { deleted: true, id });
  say(deps, `Deleted document ${opts.document}`);
}
