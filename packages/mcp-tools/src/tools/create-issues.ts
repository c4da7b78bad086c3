import { z } from "zod";
import { body, list } from "../contract.js";
import { issueLine, issueRow, toIssueRow } from "../format.js";
import { createdLabelsLine, labelsToCreate } from "../side-effects.js";
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
    issues: list(body.createIssues.issues, z.object(issueFields)),
    idempotencyKey: idempotencyKeyInput,
  },
  output: { issues: z.array(issueRow), createdLabels: z.array(z.string()) },
  readOnly: false,
  destructive: false,
  idempotent: false,
  async run(input, { tracker, read, write }) {
    const createdLabels = await labelsToCreate(
      tracker,
      input.issues.flatMap((i) => i.labels ?? []),
      read,
    );
    const created = await tracker.issues.createMany(input.issues.map(createBody), write(0));
    const rows = created.map(toIssueRow);
    const lines = [
      `Created ${rows.length}:`,
      ...rows.map((row) => issueLine(row)),
      ...createdLabelsLine(createdLabels),
    ];
    return { text: lines.join("\n"), data: { issues: rows, createdLabels } };
  },
  about: (input) => ({ team: input.issues[0]?.team }),
});
