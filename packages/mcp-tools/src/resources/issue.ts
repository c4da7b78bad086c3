import { completeIdentifiers } from "../completions.js";
import { readIssue } from "../tools/get-issue.js";
import type { ResourceDefinition } from "./resource.js";

export const issueResource: ResourceDefinition = {
  name: "issue",
  title: "Issue",
  description:
    "An issue with its description, sub-issues, relations, links and comments, e.g. tracker://issues/ENG-123.",
  template: "tracker://issues/{identifier}",
  async list(deps, read) {
    const page = await deps.tracker.issues.list(
      { assignee: "me", stateType: ["backlog", "unstarted", "started"], sort: "-updated", limit: 50 },
      read,
    );
    return page.items.map((i) => ({
      uri: `tracker://issues/${i.identifier}`,
      name: i.identifier,
      title: i.title,
    }));
  },
  complete: { identifier: (deps, typed) => completeIdentifiers(deps, typed) },
  async read(deps, { identifier = "" }, read, trust) {
    return (await readIssue(deps.tracker, identifier, read, trust)).text;
  },
};
