import { genericPlanWhenOnly, sql } from "../../db/sql.js";
import { dateFromJson, isoFromJson, jsonTimeSql } from "../../db/sql-time.js";
import { JsonText, type WorkspaceScope } from "../../http/handler.js";
import { visibleTeamIdCondition } from "../shared/resolve.js";
import { namesAt, type WorkspaceNames } from "../shared/workspace-names.js";
import type { IssueOut, IssueRow } from "./issue.serialize.js";
import {
  compileIssueFilter,
  type IssueFilter,
  isRecentSearch,
  issuePage,
  mayHaveOr,
  PHRASE_SCAN_ROWS,
  requiredPhrases,
  SEARCH_SCAN_ROWS,
} from "./issue-filter.js";

export interface IssuePage {
  issues: IssueOut[];
  nextOffset: number | null;
}

type Priority = IssueOut["priority"];
type StateType = IssueOut["state"]["type"];

/** A row of the list statement: the issue's own columns, and on the first row the page's references. */
type ListRow = Pick<
  IssueRow,
  | "id"
  | "number"
  | "title"
  | "description"
  | "priority"
  | "estimate"
  | "dueDate"
  | "parentId"
  | "createdAt"
  | "updatedAt"
  | "completedAt"
> & {
  teamId: string;
  stateId: string;
  assigneeId: string | null;
  projectId: string | null;
  cycleId: string | null;
};
/**
 * A row of the statement that leaves the names to the server's cache: the issue's own fields as JSON text
 * (`own`), its references by id.
 */
type NamedListRow = Pick<
  ListRow,
  | "id"
  | "number"
  | "teamId"
  | "stateId"
  | "assigneeId"
  | "projectId"
  | "cycleId"
  | "parentId"
  | "createdAt"
  | "updatedAt"
  | "completedAt"
> & {
  /** `"title":…,"description":…,"priority":…,"estimate":…,"dueDate":…` */
  own: string;
  /** The issue's label ids (`issues.label_ids`), comma-separated; empty without labels. */
  labelIds: string | null;
  /** On the first row: the workspace's names_version in the statement's snapshot. */
  namesVersion: string | null;
};
/** A row of the statement that reads the names itself. */
type FullListRow = ListRow & { refs: PageRefs | null };

/** Everything the page's issues refer to, once each, keyed by id (labels: by issue id). */
interface PageRefs {
  teams: Record<string, [key: string, name: string]> | null;
  states: Record<string, [name: string, type: StateType]> | null;
  users: Record<string, [name: string, email: string]> | null;
  projects: Record<string, string> | null;
  cycles: Record<string, number> | null;
  labels: Record<string, string[]> | null;
}

/** A list statement pair: `text` and, when the cached names cannot answer, `fullText` (`issueListQuery`). */
export interface ListStatement {
  text: string;
  params: unknown[];
  fullText: string;
  fullParams: unknown[];
}

/**
 * The statements of a list page. The inner select filters, sorts and pages over `issues` alone (plus the
 * join a state or assignee sort needs), so an index on the sort key can stop after the page. One row more
 * than the page is fetched to know whether another page follows. Exported for the bench.
 *
 * `statements` are tried in turn: a statement other than the last answers with no rows when it cannot tell
 * the page (a full-text search whose first source holds too few matches, `searchFirstSource`); the last one
 * always can. Each is a pair:
 * - `text`, the one a page normally takes: the page's rows with each issue's label ids (kept on the issue by
 *   triggers: migration `…_issue_label_ids`), and on the first row
 *   the workspace's `names_version`. The names of teams, states, assignees, projects, cycles and labels come
 *   from the server's cache of that version (`workspace-names.ts`). Reading them for each page was half of
 *   the statement's PostgreSQL time (bench/README.md).
 * - `fullText`, when the cache cannot answer (names changed between the statement and reading them, an
 *   assignee who has left the workspace): the same rows, and on the first row one JSON object of everything
 *   the page refers to, each read once for the page.
 */
export async function issueListQuery(scope: WorkspaceScope, filter: IssueFilter) {
  const { limit, offset } = issuePage(filter);
  const recentSearch = isRecentSearch(filter);
  // A search in `updated` order runs on generic plans (`listIssues`).
  const compiled = await compileIssueFilter(scope, filter, { genericPlan: recentSearch });
  // Every match, through the filter's indexes: for a search, its GIN index.
  const all = {
    text: `select i.id from issues i ${compiled.joins}
                   where ${compiled.where}
                   order by ${compiled.orderBy}`,
    params: compiled.params,
  };
  const sources = recentSearch
    ? [
        searchFirstSource(
          scope,
          filter.q!.trim(),
          compiled.orderBy,
          offset + limit + 1,
          filter.sort !== "updated",
        ),
        all,
      ]
    : [all];
  return {
    statements: sources.map((source) => pageStatement(scope, source, limit, offset)),
    limit,
    offset,
    check: compiled.check,
  };
}

/** The page statements over `source`, a select of issue ids in the list's order. */
function pageStatement(
  scope: WorkspaceScope,
  source: { text: string; params: unknown[] },
  limit: number,
  offset: number,
): ListStatement {
  const fullParams = [...source.params, limit + 1, offset];
  // The page's issues, in the list's order (`p.ord`).
  const pageRows = `unnest(array(
              ${source.text}
               limit ? offset ?
            )) with ordinality as p(id, ord)
       join issues i on i.id = p.id`;
  const page = `with page as materialized (
         select i.id, i.number, i.title, i.description, i.priority, i.estimate, i.due_date, i.team_id, i.state_id,
                i.assignee_id, i.project_id, i.cycle_id, i.parent_id, i.created_at, i.updated_at, i.completed_at,
                i.label_ids, p.ord
           from ${pageRows})`;
  // The issue's id, number, references and timestamps from `t`; timestamps as JSON text, made ISO here
  // (`jsonTimeSql`).
  const idColumns = (
    t: string,
  ) => `${t}.id, ${t}.number, ${t}.team_id as "teamId", ${t}.state_id as "stateId",
            ${t}.assignee_id as "assigneeId", ${t}.project_id as "projectId", ${t}.cycle_id as "cycleId",
            ${t}.parent_id as "parentId", ${jsonTimeSql(`${t}.created_at`)} as "createdAt",
            ${jsonTimeSql(`${t}.updated_at`)} as "updatedAt", ${jsonTimeSql(`${t}.completed_at`)} as "completedAt"`;
  const columns = `${idColumns("page")}, page.title, page.description, page.priority, page.estimate,
            ${jsonTimeSql("page.due_date", false)} as "dueDate"`;
  // The issue's own fields as JSON text, which the page's JSON takes as it is (`pageJson`).
  const own = `'"title":' || to_json(i.title)::text
            || ',"description":' || coalesce(to_json(i.description)::text, 'null')
            || ',"priority":' || i.priority || ',"estimate":' || coalesce(i.estimate::text, 'null')
            || ',"dueDate":' || coalesce(to_json(i.due_date)::text, 'null')`;
  return {
    // The page's rows straight from the join: `fullText` reads them several times and keeps them in a CTE,
    // whose wide rows cost 0.06 ms of a team page's 0.43 to write and read back.
    text: `select ${idColumns("i")},
            ${own} as own,
            array_to_string(i.label_ids, ',') as "labelIds",
            case when p.ord = 1 then (select w.names_version::text from workspaces w where w.id = ?) end
              as "namesVersion"
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
    params: [scope.workspace.id, ...fullParams],
    fullParams,
  };
}

/**
 * Whether a search should first look among the workspace's recent issues: newest first, without `or` or a
 * quoted phrase, and with two words or more that every match must hold. A guess from the text (a stop word
 * counts here); the statement itself is right whatever the words.
 */
function searchesRecentFirst(q: string, or: boolean, newestFirst: boolean): boolean {
  if (!newestFirst || or || q.includes('"')) return false;
  return q.split(/\s+/).filter((word) => !word.startsWith("-") && /[\p{L}\p{N}]/u.test(word)).length >= 2;
}

/**
 * The first source of a full-text search's page in `updated` order (`isRecentSearch`): a select of the first
 * `need` matching ids (the page, what it skips, and one more) in that order, or of none when it cannot tell
 * them; the list's own statement over every match (its GIN index: rare words, phrases) follows then. Each is
 * its own statement, whose plan does not depend on the words, so it is prepared once per connection; a
 * statement of all the sources at once spent a quarter of a millisecond just starting and stopping the parts
 * it did not use.
 *
 * - `recent`, newest first for two words or more that every match must hold, without `or`
 *   (`searchesRecentFirst`): the workspace's recent issues (`issue_search_recent`, migration
 *   `issue_search_recent`), through their own GIN index of workspace-prefixed lexemes, which match exactly
 *   when the query does; only those updated since the workspace's `since`, all of which are there. They
 *   tell the page when they hold `need` matches, or when the workspace has no `since` (every issue is
 *   there). Their cost grows with their matches, all sorted: few for words that must all be there. Not for
 *   phrases, whose positions the lexemes do not keep. When they cannot tell, the matches are rare among the
 *   newest issues, which a scan would read, so the GIN index follows directly.
 * - `scan`, otherwise: the first SEARCH_SCAN_ROWS visible issues of the default sort's covering index in
 *   order (PHRASE_SCAN_ROWS with a quoted phrase), skipping those whose search bits lack a bit that every
 *   branch of the query's `or` requires (`tracker_search_masks`, migration `issue_search_branch_masks`)
 *   and rechecking the rest against their stored vector. It tells the page when it finds `need` matches.
 */
function searchFirstSource(
  scope: WorkspaceScope,
  q: string,
  orderBy: string,
  need: number,
  newestFirst: boolean,
): { text: string; params: unknown[] } {
  const vis = visibleTeamIdCondition(scope, "i.team_id");
  const ws = scope.workspace.id;
  const or = mayHaveOr(q);
  const outerOrder = orderBy.replace(/\bi\./g, "r.");
  if (searchesRecentFirst(q, or, newestFirst)) {
    return {
      text: `select r.id from (
        with s as materialized (select tracker_search_terms_query(?::uuid, websearch_to_tsquery('english', ?)) as rq),
             cut as materialized (select rs.since from issue_search_recent_since rs where rs.workspace_id = ?)
        select i.issue_id as id, i.updated_at, i.team_id, i.number, count(*) over () as found,
               not exists (select 1 from cut) as everything
          from (select i.issue_id, i.updated_at, i.team_id, i.number
                  from issue_search_recent i
                 where i.terms @@ (select rq from s) and i.workspace_id = ? and ${vis.sql}
                   and i.updated_at >= coalesce((select since from cut), '-infinity')
                 order by ${orderBy}
                 limit ?) i
      ) r
      where r.found >= ? or r.everything
      order by ${outerOrder}`,
      params: [ws, q, ws, ws, ...vis.params, need, need],
    };
  }
  /** The row holds the bits of the mask's words `first..first+3` (1-based) of `tracker_search_masks`. */
  const holds = (first: number) =>
    [0, 1, 2, 3]
      .map((n) => {
        const m = `(select m[${first + n}] from sm)`;
        return `(i.search_bits_${n} & ${m}) = ${m}`;
      })
      .join(" and ");
  // The bits every branch requires, or, with an `or`, those of either branch: a test less per row without.
  const bits = or ? `(${holds(5)}\n                     or ${holds(9)})` : holds(1);
  return {
    text: `select r.id from (
        with s as materialized (select websearch_to_tsquery('english', ?) as tq),
             sm as materialized (select tracker_search_masks(tq) as m from s),
             hits as materialized (
               select i.id, i.updated_at, i.team_id, i.number
                 from (select i.id, i.updated_at, i.team_id, i.number,
                              i.search_bits_0, i.search_bits_1, i.search_bits_2, i.search_bits_3
                         from issues i
                        where i.workspace_id = ? and ${vis.sql}
                        order by ${orderBy}
                        limit ?) i
                where numnode((select tq from s)) > 0
                and ${bits}
                and (select h.search_vector from issues h where h.id = i.id) @@ (select tq from s)
                order by ${orderBy}
                limit ?)
        select * from hits where (select count(*) from hits) >= ?
      ) r
      order by ${outerOrder}`,
    params: [
      q,
      ws,
      ...vis.params,
      requiredPhrases(q).length ? PHRASE_SCAN_ROWS : SEARCH_SCAN_ROWS,
      need,
      need,
    ],
  };
}

/**
 * Per cached names (one version of a workspace's), each reference's JSON as a page shows it, made the first
 * time a page needs it: a team, state, assignee, project and cycle by id, and the label names of each
 * `label_ids` text (pages repeat the same few combinations). Null for an id the names do not hold. Bounded
 * per version, as label combinations are many.
 */
interface Fragments {
  teams: Map<string, { key: string; json: string } | null>;
  states: Map<string, string | null>;
  users: Map<string, string | null>;
  projects: Map<string, string | null>;
  cycles: Map<string, string | null>;
  labels: Map<string, string | null>;
}
const fragmentsOf = new WeakMap<WorkspaceNames, Fragments>();
const FRAGMENTS_MAX = 4096;

function fragments(names: WorkspaceNames): Fragments {
  let f = fragmentsOf.get(names);
  if (!f) {
    f = {
      teams: new Map(),
      states: new Map(),
      users: new Map(),
      projects: new Map(),
      cycles: new Map(),
      labels: new Map(),
    };
    fragmentsOf.set(names, f);
  }
  return f;
}

/** `map`'s entry for `key`, made by `make` the first time. */
function memo<V>(map: Map<string, V>, key: string, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) {
    v = make();
    if (map.size >= FRAGMENTS_MAX) map.clear();
    map.set(key, v);
  }
  return v;
}

/** The label names of comma-separated label ids, in the order the contract shows them; null if one is unknown. */
function labelNames(names: WorkspaceNames, ids: string): string[] | null {
  const named: [string, number][] = [];
  for (const id of ids.split(",")) {
    const label = names.labels[id];
    if (!label) return null;
    named.push(label);
  }
  return named.sort((a, b) => a[1] - b[1]).map(([name]) => name);
}

/**
 * The page's JSON text, as `JSON.stringify` of `IssuePage` would write it: each issue's own fields from its
 * row's `own` JSON text, its references from the cached names' fragments. Undefined when a row refers to
 * something the names do not hold. The page's rows are neither turned into objects nor serialised again:
 * those were a third of a list request's server time (bench/README.md).
 */
function pageJson(
  rows: NamedListRow[],
  names: WorkspaceNames,
  nextOffset: number | null,
): string | undefined {
  const f = fragments(names);
  const parts: string[] = [];
  for (const r of rows) {
    const team = memo(f.teams, r.teamId, () => {
      const t = names.teams[r.teamId];
      return t ? { key: t[0], json: JSON.stringify({ id: r.teamId, key: t[0], name: t[1] }) } : null;
    });
    const state = memo(f.states, r.stateId, () => {
      const s = names.states[r.stateId];
      return s ? JSON.stringify({ id: r.stateId, name: s[0], type: s[1] }) : null;
    });
    const assignee = r.assigneeId
      ? memo(f.users, r.assigneeId, () => {
          const u = names.users[r.assigneeId!];
          return u ? JSON.stringify({ id: r.assigneeId, name: u[0], email: u[1] }) : null;
        })
      : "null";
    const project = r.projectId
      ? memo(f.projects, r.projectId, () => {
          const p = names.projects[r.projectId!];
          return p === undefined ? null : JSON.stringify({ id: r.projectId, name: p });
        })
      : "null";
    const cycle = r.cycleId
      ? memo(f.cycles, r.cycleId, () => {
          const c = names.cycles[r.cycleId!];
          return c === undefined ? null : JSON.stringify({ id: r.cycleId, number: c });
        })
      : "null";
    const labels = r.labelIds
      ? memo(f.labels, r.labelIds, () => {
          const named = labelNames(names, r.labelIds!);
          return named && JSON.stringify(named);
        })
      : "[]";
    if (!team || !state || !assignee || !project || !cycle || !labels) return undefined;
    const completedAt = isoFromJson(r.completedAt);
    parts.push(
      `{"id":"${r.id}","identifier":${JSON.stringify(`${team.key}-${r.number}`)},${r.own},"team":${team.json},` +
        `"state":${state},"assignee":${assignee},"project":${project},"cycle":${cycle},"labels":${labels},` +
        `"parentId":${r.parentId ? `"${r.parentId}"` : "null"},"createdAt":"${isoFromJson(r.createdAt)}",` +
        `"updatedAt":"${isoFromJson(r.updatedAt)}","completedAt":${completedAt ? `"${completedAt}"` : "null"}}`,
    );
  }
  return `{"issues":[${parts.join(",")}],"nextOffset":${nextOffset ?? "null"}}`;
}

/**
 * Shapes the list rows as the contract's `Issue`, resolving references through `refs`; undefined when a row
 * refers to something `refs` does not know.
 */
function issuesFromRows(rows: ListRow[], refs: PageRefs | null | undefined): IssueOut[] | undefined {
  const out: IssueOut[] = [];
  for (const r of rows) {
    const team = refs?.teams?.[r.teamId];
    const state = refs?.states?.[r.stateId];
    const assignee = r.assigneeId ? refs?.users?.[r.assigneeId] : undefined;
    const project = r.projectId ? refs?.projects?.[r.projectId] : undefined;
    const cycle = r.cycleId ? refs?.cycles?.[r.cycleId] : undefined;
    const labels = refs?.labels?.[r.id] ?? [];
    if (
      !team ||
      !state ||
      (r.assigneeId && !assignee) ||
      (r.projectId && project === undefined) ||
      (r.cycleId && cycle === undefined)
    )
      return undefined;
    out.push({
      id: r.id,
      identifier: `${team[0]}-${r.number}`,
      title: r.title,
      description: r.description,
      priority: r.priority as Priority,
      estimate: r.estimate,
      dueDate: dateFromJson(r.dueDate),
      team: { id: r.teamId, key: team[0], name: team[1] },
      state: { id: r.stateId, name: state[0], type: state[1] },
      assignee: assignee ? { id: r.assigneeId!, name: assignee[0], email: assignee[1] } : null,
      project: r.projectId ? { id: r.projectId, name: project! } : null,
      cycle: r.cycleId ? { id: r.cycleId, number: cycle! } : null,
      labels,
      parentId: r.parentId,
      createdAt: isoFromJson(r.createdAt)!,
      updatedAt: isoFromJson(r.updatedAt)!,
      completedAt: isoFromJson(r.completedAt),
    });
  }
  return out;
}

/**
 * Filter keys whose values do not change which plan is best: the workspace, the caller, teams (an index
 * prefix whatever the team's size), state types, specials, sort and paging. A list filtered by nothing else
 * is a prepared statement with a generic plan, made once per connection instead of on every request (for
 * these, PostgreSQL would otherwise keep replanning: 1.8 instead of 2.1 ms for a team page). Words, states,
 * people, labels, projects and cycles can match a handful of issues or most of them, so those lists are
 * planned for their values each time.
 */
const PLAN_FREE_KEYS: ReadonlySet<string> = new Set([
  "team",
  "stateType",
  "special",
  "sort",
  "limit",
  "offset",
]);

/** One page of the issues matching `filter`, filtered, sorted and paged in SQL. */
export async function listIssues(scope: WorkspaceScope, filter: IssueFilter): Promise<JsonText<IssuePage>> {
  const query = await issueListQuery(scope, filter);
  const prepare = isRecentSearch(filter) ? "generic" : genericPlanWhenOnly(filter, PLAN_FREE_KEYS);
  /** The page's rows without the one fetched to know whether another page follows, and that answer. */
  const paged = <R>(rows: R[]) => {
    const more = rows.length > query.limit;
    return {
      rows: more ? rows.slice(0, query.limit) : rows,
      nextOffset: more ? query.offset + query.limit : null,
    };
  };
  /** The rows of the first statement that can tell the page: one that cannot returns none. */
  const answer = async <R>(form: "text" | "fullText") => {
    let rows: R[] = [];
    for (const statement of query.statements) {
      const [text, params] =
        form === "text" ? [statement.text, statement.params] : [statement.fullText, statement.fullParams];
      rows = await sql<R>(scope.em, text, params, { prepare });
      if (rows.length) break;
    }
    return rows;
  };
  const rows = await answer<NamedListRow>("text");
  // An empty page may be a reference naming nothing: that is a 404/400, not an empty list.
  if (rows.length === 0) {
    await query.check();
    return new JsonText(JSON.stringify({ issues: [], nextOffset: null } satisfies IssuePage));
  }
  const page = paged(rows);
  const names = rows[0]!.namesVersion
    ? await namesAt(scope.em, scope.workspace.id, rows[0]!.namesVersion)
    : undefined;
  const json = names && pageJson(page.rows, names, page.nextOffset);
  if (json) return new JsonText(json);
  const full = paged(await answer<FullListRow>("fullText"));
  const issues = issuesFromRows(full.rows, full.rows[0]?.refs)!;
  return new JsonText(JSON.stringify({ issues, nextOffset: full.nextOffset } satisfies IssuePage));
}
