import { completeLabels } from "../completions.js";
import { issueLines, toIssueRow } from "../format.js";
import type { ResourceDefinition } from "./resource.js";

export const labelResource: ResourceDefinition = {
  name: "label",
  title: "Open issues with a label",
  description:
    "The open issues carrying a label, in every team, first 100 by priority, e.g. tracker://labels/bug.",
  template: "tracker://labels/{name}",
  async list(deps, read) {
    const labels = await deps.tracker.labels.list({}, read);
    return labels
      .slice(0, 100)
      .map((l) => ({ uri: `tracker://labels/${encodeURIComponent(l.name)}`, name: l.name }));
  },
  complete: { name: (deps, typed) => completeLabels(deps, typed) },
  async read(deps, { name = "" }, read) {
    const page = await deps.tracker.issues.list(
      { label: [name], stateType: ["backlog", "unstarted", "started"], sort: "priority", limit: 100 },
      read,
    );
    const lines = issueLines(page.items.map(toIssueRow));
    if (page.nextOffset !== null) lines.push("(first 100; search_issues pages through the rest)");
    return lines.join("\n") || `No open issues carry "${name}".`;
  },
};
