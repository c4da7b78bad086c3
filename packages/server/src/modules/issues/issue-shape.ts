import type { components } from "@tracker/sdk/schema";
import { q, raw, type SqlFragment } from "../../db/sql-fragment.js";
import { dateSql, isoSql } from "../../db/sql-time.js";

/**
 * The contract's `Issue`, defined once: `issueColumns` selects it in SQL and `issueFromRow` builds the object
 * every write and the single read answer; a list page writes the same fields as JSON text, field by field
 * in the contract's order (`ISSUE_PAGE_FIELDS`, list/page-json.ts). issue-shape.test.ts shows the three
 * agree for the same issues.
 */
export type IssueOut = components["schemas"]["Issue"];
/** What `POST /issues` (and each item of a batch) and `PATCH /issues/{identifier}` take. */
export type IssueCreateInput = components["schemas"]["IssueCreate"];
export type IssueUpdateInput = components["schemas"]["IssueUpdate"];
type StateType = components["schemas"]["StateType"];
type Priority = components["schemas"]["Priority"];

/** The issue's label names, sorted as the contract shows them. */
const LABELS_OF_ISSUE = `(select array_agg(sl.name order by lower(sl.name), sl.name) from issue_labels sil
              join labels sl on sl.id = sil.label_id where sil.issue_id = i.id)`;

/**
 * The label names of the labels `labelIds`, sorted like {@link ISSUE_COLUMNS} sorts an issue's labels:
 * for the statement that writes the issue's labels, which cannot see its own writes.
 */
const labelNamesSql = (labelIds: string[]): SqlFragment =>
  q`(select array_agg(sl.name order by lower(sl.name), sl.name) from labels sl where sl.id = any(${labelIds}::uuid[]))`;

/**
 * The label names of each issue as the relation `written` (columns `issue_id`, `label_id`) holds them, for a
 * statement that writes many issues' labels from it (a batch create), sorted the same way.
 */
const writtenLabelNamesSql = (written: string): SqlFragment =>
  raw(`(select array_agg(sl.name order by lower(sl.name), sl.name) from ${written} wl
          join labels sl on sl.id = wl.label_id where wl.issue_id = i.id)`);

/**
 * The SELECT list of one contract `Issue` over `issues i` ({@link ISSUE_FROM}), or over any relation
 * aliased `i` with the issues columns (e.g. a CTE `update issues ... returning *`). References are scalar
 * subqueries building their JSON object (null when absent), not joins: a page's statement then plans in
 * a fraction of a millisecond instead of several (join-order search over six tables), and each lookup is a
 * primary-key probe per returned row. Timestamps, due dates and sorted label names are formatted in SQL.
 * `labelIds`, from a statement that writes them, are the labels to show instead of the issue's rows (or
 * `writtenIn`: the relation of the issue and label ids it writes).
 * Map the rows with {@link issueFromRow}.
 */
export function issueColumns(labelIds?: string[] | { writtenIn: string }): SqlFragment {
  const labels = !labelIds
    ? raw(LABELS_OF_ISSUE)
    : Array.isArray(labelIds)
      ? labelNamesSql(labelIds)
      : writtenLabelNamesSql(labelIds.writtenIn);
  return q`i.id as "id",
  i.number as "number",
  i.title as "title",
  i.description as "description",
  i.priority as "priority",
  i.estimate as "estimate",
  ${raw(dateSql("i.due_date"))} as "dueDate",
  (select json_build_object('id', sd.id, 'name', sd.name) from users sd where sd.id = i.delegate_id) as "delegate",
  (select json_build_object('id', st.id, 'key', st.key, 'name', st.name) from teams st
    where st.id = i.team_id) as "team",
  (select json_build_object('id', ss.id, 'name', ss.name, 'type', ss.type) from workflow_states ss
    where ss.id = i.state_id) as "state",
  (select json_build_object('id', su.id, 'name', su.name, 'email', su.email) from users su
    where su.id = i.assignee_id) as "assignee",
  (select json_build_object('id', sp.id, 'name', sp.name) from projects sp where sp.id = i.project_id) as "project",
  (select json_build_object('id', sc.id, 'number', sc.number) from cycles sc where sc.id = i.cycle_id) as "cycle",
  coalesce(${labels}, '{}') as "labels",
  i.parent_id as "parentId",
  ${raw(isoSql("i.created_at"))} as "createdAt",
  ${raw(isoSql("i.updated_at"))} as "updatedAt",
  ${raw(isoSql("i.completed_at"))} as "completedAt",
  ${raw(isoSql("i.archived_at"))} as "archivedAt"`;
}

/** {@link issueColumns} reading the issue's own labels. */
export const ISSUE_COLUMNS = issueColumns().sql;

/** The FROM clause {@link ISSUE_COLUMNS} reads from. */
export const ISSUE_FROM = "issues i";

type Ref<K extends keyof IssueOut> = NonNullable<IssueOut[K]>;

/** One row selected with {@link ISSUE_COLUMNS}. */
export interface IssueRow {
  id: string;
  number: number;
  title: string;
  description: string | null;
  priority: number;
  estimate: number | null;
  dueDate: string | null;
  delegate: Ref<"delegate"> | null;
  team: Ref<"team">;
  state: Ref<"state">;
  assignee: Ref<"assignee"> | null;
  project: Ref<"project"> | null;
  cycle: Ref<"cycle"> | null;
  labels: string[];
  parentId: string | null;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
  archivedAt: string | null;
}

/** Shapes a row of {@link ISSUE_COLUMNS} as the contract's `Issue` (absent references are `null`). */
export function issueFromRow(r: IssueRow): IssueOut {
  return {
    id: r.id,
    identifier: `${r.team.key}-${r.number}`,
    title: r.title,
    description: r.description,
    priority: r.priority as Priority,
    estimate: r.estimate,
    dueDate: r.dueDate,
    delegate: r.delegate,
    team: r.team,
    state: { id: r.state.id, name: r.state.name, type: r.state.type as StateType },
    assignee: r.assignee,
    project: r.project,
    cycle: r.cycle,
    labels: r.labels,
    parentId: r.parentId,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    completedAt: r.completedAt,
    archivedAt: r.archivedAt,
  };
}
