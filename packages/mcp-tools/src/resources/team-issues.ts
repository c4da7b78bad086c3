import { completeLabels, completeStates, completeTeamKeys } from "../completions.js";
import { issueLines, toIssueRow } from "../format.js";
import type { ResourceDefinition } from "./resource.js";

export const teamIssuesResource: ResourceDefinition = {
  name: "team-issues",
  title: "A team's issues",
  description:
    "A team's issues in one state and/or with one label (open ones when no state is given), first 100 by priority, " +
    "e.g. tracker://teams/ENG/issues?state=Todo&label=bug.",
  template: "tracker://teams/{key}/issues{?state,label}",
  complete: {
    key: (deps, typed) => completeTeamKeys(deps, typed),
    state: (deps, typed, context) => completeStates(deps, context.key, typed),
    label: (deps, typed) => completeLabels(deps, typed),
  },
  async read(deps, { key = "", state, label }, read) {
    const page = await deps.tracker.issues.list(
      {
        team: key,
        ...(state ? { state } : { stateType: ["backlog", "unstarted", "started"] }),
        ...(label ? { label: [label] } : {}),
        sort: "priority",
        limit: 100,
      },
      read,
    );
    const lines = issueLines(page.items.map(toIssueRow));
    if (page.nextOffset !== null) lines.push("(first 100; search_issues pages through the rest)");
    return lines.join("\n") || "No issues.";
  },
};
