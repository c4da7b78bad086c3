import type { Schemas } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts } from "../../command.js";
import { firstStateOfType, issueTeamStates } from "../../resolve.js";
import { eachIssue } from "./edit.js";

export const spec = defineCommand({
  summary: "Close issues: move them to their team's first completed state",
  description:
    "With --canceled, to the first canceled state instead. --comment adds a comment to each first.",
  args: ["ids..."],
  options: {
    canceled: { type: "boolean", description: "Close as canceled rather than completed" },
    comment: { type: "string", short: "c", value: "TEXT", description: "Leave a comment on each issue" },
  },
  examples: [
    "tracker issues close ENG-12",
    'tracker issues close ENG-3 ENG-4 --canceled --comment "Duplicate of ENG-2"',
  ],
});

/** Moves each issue to the first state of `type` of its own team (teams are looked up once each). */
export async function moveToType(
  deps: Deps,
  opts: { json?: boolean; comment?: string },
  ids: string[],
  type: Schemas["StateType"],
  verb: string,
): Promise<void> {
  await eachIssue(deps, opts, ids, verb, async (id) => {
    const { identifier, teamKey, states } = await issueTeamStates(deps, id);
    const state = firstStateOfType(states, type, teamKey);
    if (opts.comment) await deps.tracker.comments.create(identifier, { body: opts.comment }, deps.call);
    return deps.tracker.issues.update(identifier, { state: state.name }, deps.call);
  });
}

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  await moveToType(deps, opts, opts.ids, opts.canceled ? "canceled" : "completed", "Closed");
}
