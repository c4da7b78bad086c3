import { type Deps, defineCommand, type Opts } from "../../command.js";
import { confirmDeletion } from "../../input.js";
import { printJson, say } from "../../output.js";
import { userId } from "../../resolve.js";

export const spec = defineCommand({
  summary: "Remove a member from the workspace (admins; anyone may remove themself)",
  description: "Their keys stop reaching the workspace at once; their issues and comments stay.",
  args: ["user"],
  options: {
    yes: { type: "boolean", short: "y", description: "Remove without asking (required without a terminal)" },
  },
  examples: ["tracker members remove bob@example.com --yes"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const id = await userId(deps, opts.user);
  await confirmDeletion(deps, opts.yes, `${opts.user} from the workspace`);
  await deps.tracker.members.remove(id, deps.call);
  if (opts.json) return printJson(deps, { removed: true, id });
  say(deps, `Removed ${opts.user}`);
}
