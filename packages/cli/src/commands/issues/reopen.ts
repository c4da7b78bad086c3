import { type Deps, defineCommand, type Opts } from "../../command.js";
import { moveToType } from "./close.js";

export const spec = defineCommand({
  summary: "Reopen issues: move them to their team's first unstarted state",
  args: ["ids..."],
  options: {
    comment: { type: "string", short: "c", value: "TEXT", description: "Leave a comment on each issue" },
  },
  examples: ["tracker issues reopen ENG-12", 'tracker issues reopen ENG-12 --comment "Still happens on 2.3"'],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  await moveToType(deps, opts, opts.ids, "unstarted", "Reopened");
}
