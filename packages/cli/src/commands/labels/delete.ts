import { type Deps, defineCommand, type Opts } from "../../command.js";
import { confirmDeletion } from "../../input.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Delete a label, taking it off every issue",
  args: ["label"],
  options: {
    yes: { type: "boolean", short: "y", description: "Delete without asking (required without a terminal)" },
  },
  examples: ["tracker labels delete wontfix --yes"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  await confirmDeletion(deps, opts.yes, `label ${opts.label} (it comes off every issue)`);
  await deps.tracker.labels.delete(opts.label, deps.call);
  if (opts.json) return printJson(deps, { deleted: true, label: opts.label });
  say(deps, `Deleted label ${opts.label}`);
}
