import { randomUUID } from "node:crypto";
import type { components } from "@tracker/sdk/schema";
import { lockIssues } from "../../../db/locks.js";
import { sql, sqlOne } from "../../../db/sql.js";
import { q } from "../../../db/sql-fragment.js";
import { inTransaction } from "../../../db/transaction.js";
import { recordChanges } from "../../../events/record-change.query.js";
import type { WorkspaceScope } from "../../../http/handler.js";
import { Conflict, Invalid } from "../../../http/problem.js";
import { resolveIssue } from "../../shared/resolve.query.js";

export type IssueLinkOut = components["schemas"]["IssueLink"];

/** Attaches an absolute http(s) URL to the issue; the same URL twice on one issue is a conflict. */
export async function createIssueLink(
  scope: WorkspaceScope,
  ref: string,
  input: { url: string; title?: string | null },
): Promise<IssueLinkOut> {
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    throw new Invalid("The link must be an absolute http or https URL.", [
      { path: "/body/url", message: "not a URL" },
    ]);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new Invalid("The link must be an absolute http or https URL.", [
      { path: "/body/url", message: "only http and https URLs" },
    ]);
  return inTransaction(scope, async (tx) => {
    const issue = await resolveIssue(tx, ref);
    // The issue's row lock serialises link creation on it, so the duplicate check cannot race.
    await lockIssues(tx.em, tx.workspace.id, [issue]);
    const dup = await sqlOne(
      tx.em,
      q`select 1 from issue_links where issue_id = ${issue.id} and url = ${input.url}`,
    );
    if (dup) throw new Conflict("conflict", `${issue.identifier} already links to ${input.url}.`);
    const id = randomUUID();
    const title = input.title ?? null;
    await sql(
      tx.em,
      q`insert into issue_links (id, issue_id, url, title, created_at) values (${id}, ${issue.id}, ${input.url}, ${title}, now())`,
    );
    await recordChanges(tx.em, tx.workspace.id, [
      {
        entity: "issue_link",
        action: "created",
        id,
        identifier: issue.identifier,
        teamKey: issue.teamKey,
        teamId: issue.teamId,
      },
    ]);
    return { id, url: input.url, title };
  });
}
