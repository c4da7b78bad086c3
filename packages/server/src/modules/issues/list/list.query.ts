import {
  decodeCursor,
  encodeCursor,
  type KeyValue,
  keysetBranches,
  keysetSource,
} from "../../../db/keyset.js";
import { genericPlanWhenOnly, sql, sqlOne } from "../../../db/sql.js";
import { q, type SqlFragment } from "../../../db/sql-fragment.js";
import { jsonTimeSql } from "../../../db/sql-time.js";
import { AUTH_EPOCH_SQL, confirmCaller } from "../../../http/auth.js";
import { JsonText, type WorkspaceScope } from "../../../http/handler.js";
import { latestNames, namesAt, type WorkspaceNames, withLatestNames } from "../../shared/workspace-names.js";
import {
  asList,
  compileIssueFilter,
  DEFAULT_ISSUE_SORT,
  type IssueFilter,
  issueKeysetKeys,
  issuePage,
  orderByOver,
} from "./filter.js";
import { labelToWalk, labelWalkSource } from "./label-walk.js";
import {
  type FullListRow,
  ISSUE_OWN_JSON_SQL,
  type IssuePage,
  issuesFromRows,
  type NamedListRow,
  pageJson,
} from "./page-json.js";
import { LIST_VERSION_SQL, type ListVersions } from "./revalidate.query.js";
import { isRecentSearch, searchFirstSource } from "./search.js";

/** A list statement pair: `text` and, when the cached names cannot answer, `fullText` (`issueListQuery`). */
export interface ListStatement {
  text: string;
  params: unknown[];
  fullText: string;
  fullParams: unknown[];
  /** How to prepare both, when not as the list's filter decides (`listPage`). */
  prepare?: "generic";
}

/** A select of issue ids in the list's order, the first source or the last of a page's statements. */
interface ListSource {
  text: string;
  params: unknown[];
  prepare?: "generic";
}

/**
 * The statements of a list page. The inner select filters, sorts and pages over `issues` alone (plus the
 * join a state or assignee sort needs), so an index on the sort key can stop after the page. One row more
 * than the page is fetched to know whether another page follows. Exported for the bench.
 *
 * `statements` are tried in turn: a statement other than the last answers with no rows when it cannot tell
 * the page (a full-text search whose first source holds too few matches, `searchFirstSource`; a label
 * filter whose walk of the labels' newest issues found too few, `labelWalkSource`); the last one always
 * can. Each is a pair:
 * - `text`, the one a page normally takes: the page's rows with each issue's label ids (kept on the issue by
 *   triggers: migration `…_issue_label_ids`), and on the first row
 *   the workspace's `names_version`. The names of teams, states, assignees, projects, cycles and labels come
 *   from the server's cache of that version (`workspace-names.ts`). Reading them for each page was half of
 *   the statement's PostgreSQL time (bench/README.md).
 * - `fullText`, when the cache cannot answer (names changed between the statement and reading them, an
 *   assignee who has left the workspace): the same rows, and on the first row one JSON object of everything
 *   the page refers to, each read once for the page.
 */
export async function issueListQuery(scope: WorkspaceScope, filter: IssueFilter, names?: WorkspaceNames) {
  const { limit, offset } = issuePage(filter);
  // A cursor (the contract's "Pagination") starts the page after the row it holds the sort keys of.
  const sort = filter.sort ?? DEFAULT_ISSUE_SORT;
  const keys = issueKeysetKeys(sort);
  const after = filter.cursor === undefined ? undefined : decodeCursor(filter.cursor, "issues", sort, keys);
  const recentSearch = isRecentSearch(filter);
  // A search in `updated` order runs on generic plans (`listIssues`).
  const compiled = await compileIssueFilter(scope, filter, { genericPlan: recentSearch, names });
  // Every match, through the filter's indexes: for a search, its GIN index. A search in `updated` order
  // gets here when its first source could not tell the page, i.e. its matches are rare among the newest
  // issues: all of them are read through the GIN index, then sorted. The subquery's `offset 0` keeps the
  // planner from reading the sort's index in order instead and checking each issue's stored vector, which
  // its generic plan (blind to the words, it assumes 0.5% of issues match) prefers: at a million issues a
  // rare phrase read ~100,000 of them that way (bench/README.md, "Full-text fallback").
  // With a cursor, one more condition: the rows after it, as one range of the sort's index or a few in turn
  // (`keysetBranches`), so the page is read from the same index as the first page, starting at the cursor.
  const select = (extra?: SqlFragment): SqlFragment => {
    const matches = `from issues i ${compiled.joins}
                   where ${compiled.where}${extra ? `\n and ${extra.sql}` : ""}`;
    return {
      sql: recentSearch
        ? `select m.id from (select i.id, i.updated_at, i.team_id, i.number ${matches} offset 0) m
                   order by ${orderByOver(compiled.orderBy, "m")}`
        : `select i.id ${matches}
                   order by ${compiled.orderBy}`,
      params: [...compiled.params, ...(extra?.params ?? [])],
    };
  };
  const need = offset + limit + 1;
  const own = after ? keysetSource(keysetBranches(keys, after), select, need) : select();
  const all: ListSource = { text: own.sql, params: own.params };
  const walk = labelToWalk(filter, compiled);
  // The first sources read the newest matches; a page after a cursor reads its own range instead.
  const sources: ListSource[] = after
    ? [all]
    : recentSearch
      ? [searchFirstSource(scope, filter.q!.trim(), compiled.orderBy, need, filter.sort !== "updated"), all]
      : walk
        ? [labelWalkSource(compiled, walk, need), all]
        : [all];
  const sortKeysSql = `json_build_array(${keys.map((k) => k.expr).join(", ")})::text`;
  return {
    statements: sources.map((source) => pageStatement(scope, source, limit, offset, sortKeysSql)),
    limit,
    offset,
    sort,
    byCursor: after !== undefined,
    check: compiled.check,
    namesVersion: compiled.namesVersion,
  };
}

/** The page statements over `source`, a select of issue ids in the list's order. */
function pageStatement(
  scope: WorkspaceScope,
  source: ListSource,
  limit: number,
  offset: number,
  /** The sort's keys over `issues i` as JSON text, written on the page's last row for the next cursor. */
  sortKeysSql: string,
): ListStatement {
  const fullParams = [limit, ...source.params, limit + 1, offset];
  // The page's issues, in the list's order (`p.ord`).
  const pageRows = `unnest(array(
              ${source.text}
               limit ? offset ?
            )) with ordinality as p(id, ord)
       join issues i on i.id = p.id`;
  const page = `with page as materialized (
         select i.id, i.number, i.title, i.description, i.priority, i.estimate, i.due_date, i.team_id, i.state_id,
                i.assignee_id, i.project_id, i.cycle_id, i.parent_id, i.created_at, i.updated_at, i.completed_at,
                i.archived_at, i.label_ids, i.delegate_id, p.ord,
                case when p.ord = ? then ${sortKeysSql} end as sort_keys
           from ${pageRows})`;
  // The issue's id, number, references and timestamps from `t`; timestamps as JSON text, made ISO here
  // (`jsonTimeSql`).
  const idColumns = (
    t: string,
  ) => `${t}.id, ${t}.number, ${t}.team_id as "teamId", ${t}.state_id as "stateId",
            ${t}.assignee_id as "assigneeId", ${t}.project_id as "projectId", ${t}.cycle_id as "cycleId",
            ${t}.parent_id as "parentId", ${jsonTimeSql(`${t}.created_at`)} as "createdAt",
            ${jsonTimeSql(`${t}.updated_at`)} as "updatedAt", ${jsonTimeSql(`${t}.completed_at`)} as "completedAt",
            ${jsonTimeSql(`${t}.archived_at`)} as "archivedAt"`;
  const columns = `${idColumns("page")}, page.title, page.description, page.priority, page.estimate,
            ${jsonTimeSql("page.due_date", false)} as "dueDate",
            (select json_build_object('id', x.id, 'name', x.name) from users x where x.id = page.delegate_id)
              as "delegate", page.sort_keys as "sortKeys"`;
  return {
    // The page's rows straight from the join: `fullText` reads them several times and keeps them in a CTE,
    // whose wide rows cost 0.06 ms of a team page's 0.43 to write and read back.
    text: `select ${idColumns("i")},
            ${ISSUE_OWN_JSON_SQL} as own,
            array_to_string(i.label_ids, ',') as "labelIds",
            case when p.ord = ? then ${sortKeysSql} end as "sortKeys",
            case when p.ord = 1 then (select w.names_version::text from workspaces w where w.id = ?) end
              as "namesVersion",
            case when p.ord = 1 then ${LIST_VERSION_SQL} end as "listVersion",
            case when p.ord = 1 then ${AUTH_EPOCH_SQL} end as "authEpoch"
       from ${pageRows}
      order by p.ord`,
    fullText: `${page},
       refs as (
         select json_build_object(
           'teams', (select json_object_agg(x.id, json_build_array(x.key, x.name))
                       from teams x where x.id in (select team_id from page)),
           'states', (select json_object_agg(x.id, json_build_array(x.name, x.type))
                        from workflow_states x where x.id in (select state_id from page)),
           'users', (select json_object_agg(x.id, json_build_array(x.name, x.email))
                       from users x where x.id in (select assignee_id from page)),
           'projects', (select json_object_agg(x.id, x.name) from projects x where x.id in (select project_id from page)),
           'cycles', (select json_object_agg(x.id, x.number) from cycles x where x.id in (select cycle_id from page)),
           'labels', (select json_object_agg(l.issue_id, l.names)
                        from (select sil.issue_id, array_agg(sl.name order by lower(sl.name), sl.name) as names
                                from issue_labels sil join labels sl on sl.id = sil.label_id
                               where sil.issue_id in (select id from page)
                               group by sil.issue_id) l)) as refs)
     select ${columns}, case when page.ord = 1 then (select refs from refs) end as refs
       from page
      order by page.ord`,
    params: [limit, scope.workspace.id, scope.workspace.id, ...source.params, limit + 1, offset],
    fullParams,
    prepare: source.prepare,
  };
}

/**
 * Filter keys whose values do not change which plan is best: the workspace, the caller, teams (an index
 * prefix whatever the team's size), state types, specials, sort and paging. A list filtered by nothing else
 * is a prepared statement with a generic plan, made once per connection instead of on every request (for
 * these, PostgreSQL would otherwise keep replanning: 1.8 instead of 2.1 ms for a team page). Words, states,
 * people, labels, projects and cycles can match a handful of issues or most of them, so those lists are
 * planned for their values each time.
 */
export const PLAN_FREE_KEYS: ReadonlySet<string> = new Set([
  "team",
  "stateType",
  "special",
  "sort",
  "limit",
  "offset",
  "cursor",
]);

/**
 * The server's newest names for the workspace when the filter names labels: the list then compares label
 * ids (`compileIssueFilter`), and `listIssues` checks that its statement ran at those names' version.
 */
export async function namesForFilter(
  scope: WorkspaceScope,
  filter: IssueFilter,
): Promise<WorkspaceNames | undefined> {
  return asList(filter.label).length ? latestNames(scope.em, scope.workspace.id) : undefined;
}

/**
 * One page of the issues matching `filter`, filtered, sorted and paged in SQL. A filter naming labels
 * compares their ids, from the server's names cache (`withLatestNames`).
 */
export async function listIssues(
  scope: WorkspaceScope,
  filter: IssueFilter,
  /** Told the versions the page's statement read (`revalidate.query.ts`), when it read them. */
  onVersions?: (versions: ListVersions) => void,
): Promise<JsonText<IssuePage>> {
  if (!asList(filter.label).length) return (await listPage(scope, filter, undefined, onVersions))!;
  return withLatestNames(scope.em, scope.workspace.id, (names) => listPage(scope, filter, names, onVersions));
}

/** The page, or undefined when its filter was compiled from `names` of another version than it ran at. */
async function listPage(
  scope: WorkspaceScope,
  filter: IssueFilter,
  names: WorkspaceNames | undefined,
  onVersions?: (versions: ListVersions) => void,
): Promise<JsonText<IssuePage> | undefined> {
  const query = await issueListQuery(scope, filter, names);
  const prepare = isRecentSearch(filter) ? "generic" : genericPlanWhenOnly(filter, PLAN_FREE_KEYS);
  /** The page's rows without the one fetched to know whether another page follows, and that answer. */
  const paged = <R extends { sortKeys: string | null }>(rows: R[]) => {
    const more = rows.length > query.limit;
    const last = more ? rows[query.limit - 1]!.sortKeys : null;
    return {
      rows: more ? rows.slice(0, query.limit) : rows,
      nextOffset: more && !query.byCursor ? query.offset + query.limit : null,
      nextCursor: last ? encodeCursor("issues", query.sort, JSON.parse(last) as KeyValue[]) : null,
    };
  };
  /** The rows of the first statement that can tell the page: one that cannot returns none. */
  const answer = async <R>(form: "text" | "fullText") => {
    let rows: R[] = [];
    for (const statement of query.statements) {
      const text: SqlFragment =
        form === "text"
          ? { sql: statement.text, params: statement.params }
          : { sql: statement.fullText, params: statement.fullParams };
      rows = await sql<R>(scope.em, text, { prepare: statement.prepare ?? prepare });
      if (rows.length) break;
    }
    return rows;
  };
  const rows = await answer<NamedListRow>("text");
  confirmCaller(scope, rows[0]?.authEpoch);
  if (query.namesVersion !== undefined) {
    // The version the statement ran at: on its first row, or, for an empty page, read now; as versions
    // only grow, reading the compiled one now means the statement, which ran before, read it too.
    const ran =
      rows[0]?.namesVersion ??
      (
        await sqlOne<{ version: string }>(
          scope.em,
          q`select names_version::text as version from workspaces where id = ${scope.workspace.id}`,
        )
      )?.version;
    if (ran !== query.namesVersion) return undefined;
  }
  // An empty page may be a reference naming nothing: that is a 404/400, not an empty list.
  if (rows.length === 0) {
    await query.check();
    return new JsonText(
      JSON.stringify({ issues: [], nextOffset: null, nextCursor: null } satisfies IssuePage),
    );
  }
  const page = paged(rows);
  const first = rows[0]!;
  if (first.listVersion && first.namesVersion && first.authEpoch)
    onVersions?.({ list: first.listVersion, names: first.namesVersion, auth: first.authEpoch });
  const shown = rows[0]!.namesVersion
    ? await namesAt(scope.em, scope.workspace.id, rows[0]!.namesVersion)
    : undefined;
  const json = shown && pageJson(page.rows, shown, page.nextOffset, page.nextCursor);
  if (json) return new JsonText(json);
  const full = paged(await answer<FullListRow>("fullText"));
  const issues = issuesFromRows(full.rows, full.rows[0]?.refs)!;
  return new JsonText(
    JSON.stringify({ issues, nextOffset: full.nextOffset, nextCursor: full.nextCursor } satisfies IssuePage),
  );
}
