import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Remove the defaults of a view key (yours, or with --scope workspace the baseline)",
  args: ["viewKey"],
  options: {
    scope: {
      type: "string",
      value: "SCOPE",
      description: "user (default) or workspace (admins)",
      choices: ["user", "workspace"],
    },
  },
  examples: ["tracker view-defaults delete my-issues"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const scope = (opts.scope ?? "user") as "user" | "workspace";
  await deps.tracker.viewDefaults.delete({ viewKey: opts.viewKey, scope }, deps.call);
  if (opts.json) return printJson(deps, { deleted: true, viewKey: opts.viewKey, scope });
  say(deps, `Removed the ${scope} defaults of ${opts.viewKey}`);
}
