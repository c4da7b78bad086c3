import { completeStates, completeTeamKeys } from "../completions.js";
import { issueLines, toIssueRow } from "../format.js";
import type { ResourceDefinition } from "./resource.js";

export const teamStateResource: ResourceDefinition = {
  name: "team-state",
  title: "A team's issues in one state",
  description:
    "A team's issues in one workflow state, first 100 by priority, e.g. tracker://teams/ENG/states/In%20Progress.",
  template: "tracker://teams/{key}/states/{state}",
  complete: {
    key: (deps, typed) => completeTeamKeys(deps, typed),
    state: (deps, typed, context) => completeStates(deps, context.key, typed),
  },
  async read(deps, { key = "", state = "" }, read) {
    const page = await deps.tracker.issues.list({ team: key, state, sort: "priority", limit: 100 }, read);
    const lines = issueLines(page.items.map(toIssueRow));
    if (page.nextOffset !== null) lines.push("(first 100; search_issues pages through the rest)");
    return lines.join("\n") || `No ${key.toUpperCase()} issues in ${state}.`;
  },
};
