import type { components } from "@tracker/sdk/schema";
import { inTransaction } from "../../../db/transaction.js";
import { recordChanges } from "../../../events/record-change.query.js";
import type { WorkspaceScope } from "../../../http/handler.js";
import { HttpProblem, NotFound } from "../../../http/problem.js";
import { createComment } from "../../comments/comment.service.js";
import type { IssueCreateInput, IssueUpdateInput } from "../issue-shape.js";
import { issueFromRow } from "../issue-shape.js";
import { setArchived } from "./archive.query.js";
import { atItem } from "./batch.service.js";
import { createIssue } from "./create.service.js";
import {
  commentBySource,
  enterImportMode,
  isArchived,
  issuesBySource,
  readIssues,
  resolvePeople,
  type SourcedIssue,
  setImportedCommentBody,
  sourceKey,
  stampComment,
  stampIssue,
} from "./import.query.js";
import { updateIssue } from "./update.service.js";

type ImportBody = components["schemas"]["IssueImport"];
type ImportItem = components["schemas"]["ImportIssue"];
type ImportResult = components["schemas"]["IssueImportResult"];
type CommentResult = ImportResult["issues"][number]["comments"][number];

/**
 * `POST /import/issues` (`importIssues` in the contract): every item in order, in one transaction, all or
 * nothing, in import mode (db/functions/import-mode.ts: its change events are `imported`, it notifies
 * nobody). Each item is created as `POST /issues` creates one, or, when its `source` was imported before,
 * updated as `PATCH /issues/{identifier}` updates one, with the same checks and messages; then its source,
 * people and original times are written over what the write set, and its comments likewise, each created
 * or updated by its own source. People are members by email, else placeholders (import.query.ts,
 * `resolvePeople`), resolved once for the whole request.
 */
export async function importIssues(scope: WorkspaceScope, body: ImportBody): Promise<ImportResult> {
  return inTransaction(scope, async (tx) => {
    await enterImportMode(tx);
    const names = Object.fromEntries(
      Object.entries(body.names ?? {}).map(([email, name]) => [email.trim().toLowerCase(), name]),
    );
    const people = await resolvePeople(tx, emailsOf(body.issues), names);
    const person = (email: string | null | undefined) =>
      email == null ? email : people.get(email.trim().toLowerCase())!;
    const known = await issuesBySource(
      tx,
      body.issues.flatMap((i) => (i.parentSource ? [i.source, i.parentSource] : [i.source])),
    );
    const results: { result: "created" | "updated"; id: string; comments: CommentResult[] }[] = [];
    for (const [index, item] of body.issues.entries()) {
      try {
        results.push(await importOne(tx, item, known, person));
      } catch (err) {
        throw err instanceof HttpProblem ? atItem(err, index, body.issues.length) : err;
      }
    }
    const rows = await readIssues(
      tx,
      results.map((r) => r.id),
    );
    return {
      issues: results.map((r, n) => ({
        result: r.result,
        source: body.issues[n]!.source,
        issue: issueFromRow(rows[n]!),
        comments: r.comments,
      })),
    };
  });
}

/** Every email the items name, lower-cased, once each. */
function emailsOf(items: ImportItem[]): string[] {
  const all = items.flatMap((i) => [i.creator, i.assignee, ...(i.comments ?? []).map((c) => c.author)]);
  return [...new Set(all.flatMap((e) => (e ? [e.trim().toLowerCase()] : [])))];
}

async function importOne(
  tx: WorkspaceScope,
  item: ImportItem,
  known: Map<string, SourcedIssue>,
  person: (email: string | null | undefined) => string | null | undefined,
): Promise<{ result: "created" | "updated"; id: string; comments: CommentResult[] }> {
  let parent = item.parent;
  if (item.parentSource) {
    const p = known.get(sourceKey(item.parentSource));
    if (!p)
      throw new NotFound(
        `No issue imported from ${item.parentSource.system} ${JSON.stringify(item.parentSource.id)} in this workspace.`,
      );
    parent = p.identifier;
  }
  const fields = {
    title: item.title,
    ...(item.description !== undefined ? { description: item.description } : {}),
    ...(item.priority !== undefined ? { priority: item.priority } : {}),
    ...(item.estimate !== undefined ? { estimate: item.estimate } : {}),
    ...(item.dueDate !== undefined ? { dueDate: item.dueDate } : {}),
    ...(item.state !== undefined ? { state: item.state } : {}),
    ...(item.labels !== undefined ? { labels: item.labels } : {}),
    ...(item.project !== undefined ? { project: item.project } : {}),
    ...(item.cycle !== undefined ? { cycle: item.cycle } : {}),
    ...(parent !== undefined ? { parent } : {}),
  };
  const before = known.get(sourceKey(item.source));
  let issue: SourcedIssue;
  if (before) {
    await updateIssue(tx, before.identifier, fields as IssueUpdateInput);
    issue = before;
  } else {
    const created = await createIssue(tx, { team: item.team, ...fields } as IssueCreateInput);
    issue = { id: created.id, identifier: created.identifier, teamId: created.team.id };
    known.set(sourceKey(item.source), issue);
  }
  // Archived as the other tracker had it: archiveIssue's write (activity, change), then its time as given.
  let archivedNow = false;
  if (item.archivedAt !== undefined) {
    const archived = await isArchived(tx, issue.id);
    if (archived !== (item.archivedAt !== null)) {
      await setArchived(tx, issue.identifier, item.archivedAt !== null);
      archivedNow = item.archivedAt !== null;
    }
  }
  const comments: CommentResult[] = [];
  for (const c of item.comments ?? []) {
    const had = await commentBySource(tx, issue.id, c.source);
    let id: string;
    if (had) {
      id = had.id;
      if (had.body !== c.body) {
        await setImportedCommentBody(tx, id, c.body);
        await recordChanges(tx.em, tx.workspace.id, [
          { entity: "comment", action: "updated", id, identifier: issue.identifier, teamId: issue.teamId },
        ]);
      }
    } else {
      id = (await createComment(tx, issue.identifier, c.body)).id;
    }
    await stampComment(tx, id, c.source, person(c.author) ?? null, c.createdAt ?? null, c.updatedAt ?? null);
    comments.push({ result: had ? "updated" : "created", id, source: c.source });
  }
  // After the comments: each bumped the issue's `updatedAt`, which the import then sets as given.
  await stampIssue(tx, issue.id, {
    source: item.source,
    ...(item.creator !== undefined ? { creatorId: person(item.creator)! } : {}),
    ...(item.assignee !== undefined ? { assigneeId: person(item.assignee) ?? null } : {}),
    ...(item.createdAt !== undefined ? { createdAt: item.createdAt } : {}),
    ...(item.updatedAt !== undefined ? { updatedAt: item.updatedAt } : {}),
    ...(item.completedAt !== undefined ? { completedAt: item.completedAt } : {}),
    ...(item.archivedAt !== undefined ? { archivedAt: item.archivedAt } : {}),
    archivedNow,
    created: !before,
  });
  return { result: before ? "updated" : "created", id: issue.id, comments };
}
