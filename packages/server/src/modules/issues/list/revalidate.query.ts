import { createHash } from "node:crypto";
import { sqlOne } from "../../../db/sql.js";
import { AUTH_EPOCH_SQL, confirmCaller } from "../../../http/auth.js";
import { ifNoneMatch, NOT_MODIFIED, setVersionTag } from "../../../http/conditional.js";
import type { JsonText, WorkspaceScope } from "../../../http/handler.js";
import { asList, DEFAULT_ISSUE_LIMIT, DEFAULT_ISSUE_SORT, type IssueFilter } from "./filter.js";
import { listIssues } from "./list.query.js";
import type { IssuePage } from "./page-json.js";

/**
 * Cheap revalidation of the issue list (the contract's "Conditional requests"): its ETag is derived from
 * what the answer depends on instead of hashing the answer, so a request naming the current tag is answered
 * 304 after one lookup of one row, without running the list.
 *
 * The tag is a hash of: the workspace's list version (`workspace_versions`, bumped at the commit of every
 * transaction that records a change, db/functions/workspace-version.ts: issue writes, labels, states, projects, cycles, teams, members and their
 * visibility, `events/record-change.query.ts`), its `names_version` (every name a list shows, kept by
 * triggers, user renames included), the `auth_epoch` (keys, sessions, who a caller is), today's UTC date
 * (overdue, due today or this week, relative days), the workspace, the caller and their role, and the query
 * as normalised here. A list whose answer moves with the clock itself (`stale`: 14 days before now;
 * `cycle=current`) has no such tag: its ETag stays the hash of its answer.
 */

/** The versions a list answer depends on, as the list statement (or the lookup) read them. */
export interface ListVersions {
  /** `workspace_versions.version` and the UTC date, `<version>.<YYYY-MM-DD>`. */
  list: string;
  names: string;
  auth: string;
}

/** The workspace's list version and the UTC date as text, over the `?` of the workspace id. */
export const LIST_VERSION_SQL = `(coalesce((select v.version from workspace_versions v where v.workspace_id = ?), 0)::text
                    || '.' || (now() at time zone 'utc')::date::text)`;

/** Whether the list's answer is fixed by the versions and the date (not by the time of day). */
export function versionTagApplies(filter: IssueFilter): boolean {
  return !asList(filter.special).includes("stale") && filter.cycle !== "current";
}

/** The query as a stable text: keys sorted, defaults filled, nothing absent. */
function normalisedQuery(filter: IssueFilter): string {
  const full: Record<string, unknown> = {
    ...filter,
    sort: filter.sort ?? DEFAULT_ISSUE_SORT,
    limit: filter.limit ?? DEFAULT_ISSUE_LIMIT,
  };
  return JSON.stringify(
    Object.keys(full)
      .filter((k) => full[k] !== undefined)
      .sort()
      .map((k) => [k, full[k]]),
  );
}

/** The list's ETag for the caller at `versions`. */
export function versionTag(scope: WorkspaceScope, filter: IssueFilter, versions: ListVersions): string {
  const digest = createHash("sha1")
    .update(
      JSON.stringify([
        versions.list,
        versions.names,
        versions.auth,
        scope.workspace.id,
        scope.caller.userId,
        scope.workspace.role,
        normalisedQuery(filter),
      ]),
    )
    .digest("base64url");
  return `W/"l.${digest}"`;
}

/** The versions now, in one statement, which also confirms a cached caller. */
async function currentVersions(scope: WorkspaceScope): Promise<ListVersions> {
  const row = (await sqlOne<ListVersions>(
    scope.em,
    {
      sql: `select ${LIST_VERSION_SQL} as list,
                   (select w.names_version::text from workspaces w where w.id = ?) as names,
                   ${AUTH_EPOCH_SQL} as auth`,
      params: [scope.workspace.id, scope.workspace.id],
    },
    { prepare: "generic" },
  ))!;
  confirmCaller(scope, row.auth);
  return row;
}

/**
 * `GET /issues` with cheap revalidation: a request whose `If-None-Match` names the list's current tag is
 * answered 304 after one lookup; any other gets the page, tagged from the versions its statement read.
 */
export async function listIssuesRevalidated(
  scope: WorkspaceScope,
  filter: IssueFilter,
): Promise<JsonText<IssuePage>> {
  // Without a request (the bench's floor calls the handler bare) there is nothing to tag.
  const koa = scope.koa as WorkspaceScope["koa"] | undefined;
  if (!koa || !versionTagApplies(filter)) return listIssues(scope, filter);
  const sent = koa.get("if-none-match");
  if (sent) {
    const tag = versionTag(scope, filter, await currentVersions(scope));
    if (ifNoneMatch(sent, tag)) {
      setVersionTag(koa, tag);
      return NOT_MODIFIED as JsonText<IssuePage>;
    }
  }
  return listIssues(scope, filter, (versions) => setVersionTag(koa, versionTag(scope, filter, versions)));
}
