import { z } from "zod";
import { issueLine, issueRow, toIssueRow } from "../format.js";
import { defineTool, idempotencyKeyInput } from "../tool.js";
import { createBody, issueFields } from "./create-issue.js";

export const createIssuesTool = defineTool({
  name: "create_issues",
  title: "Create issues",
  description:
    "Create up to 100 issues in one call, all or nothing, numbered in the order given (e.g. the tasks of a " +
    "plan, a list you were asked to file). Faster than create_issue repeated. If one is refused, none is " +
    "created and the answer says which one and why.",
  input: {
    issues: z.array(z.object(issueFields)).min(1).max(100),
    idempotencyKey: idempotencyKeyInput,
  },
  output: { issues: z.array(issueRow) },
  readOnly: false,
  destructive: false,
  idempotent: false,
  async run(input, { tracker, write }) {
    const created = await tracker.issues.createMany(input.issues.map(createBody), write(0));
    const rows = created.map(toIssueRow);
    return {
      text: `Created ${rows.length}:\n${rows.map((row) => issueLine(row)).join("\n")}`,
      data: { issues: rows },
    };
  },
  about: (input) => ({ team: input.issues[0]?.team }),
});
