import { z } from "zod";
import { identifierInput } from "../inputs.js";
import { defineTool } from "../tool.js";

/**
 * Archive or restore one issue (the contract's `archiveIssue`, `unarchiveIssue`). Not destructive: nothing
 * is lost and `archived: false` undoes it; doing it twice changes nothing. In the `admin` toolset beside
 * `delete_issue`, so the default tools stay within their token budget (schemas.test.ts).
 */
export const archiveIssueTool = defineTool({
  name: "archive_issue",
  title: "Archive or restore an issue",
  description:
    "Archive an issue: it leaves lists, search and progress, keeping its identifier, comments and history. " +
    "`archived: false` restores it. Prefer this to delete_issue.",
  input: {
    identifier: identifierInput,
    archived: z.boolean().default(true).describe("`false` restores an archived issue."),
  },
  output: { identifier: z.string(), archivedAt: z.string().nullable() },
  readOnly: false,
  destructive: false,
  idempotent: true,
  async run(input, { tracker, write }) {
    const issue = input.archived
      ? await tracker.issues.archive(input.identifier, write())
      : await tracker.issues.unarchive(input.identifier, write());
    const text = issue.archivedAt
      ? `Archived ${issue.identifier} (since ${issue.archivedAt.slice(0, 16).replace("T", " ")}).`
      : `${issue.identifier} is not archived: it is listed again.`;
    return { text, data: { identifier: issue.identifier, archivedAt: issue.archivedAt } };
  },
  about: (input) => ({ identifier: input.identifier }),
});
