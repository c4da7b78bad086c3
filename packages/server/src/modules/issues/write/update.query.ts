import { sqlOne } from "../../../db/sql.js";
import { EMPTY, joinSql, q, raw, type SqlFragment } from "../../../db/sql-fragment.js";
import {
  changeEventsSql,
  changeValues,
  issueChange,
  labelsCreated,
} from "../../../events/record-change.query.js";
import type { WorkspaceScope } from "../../../http/handler.js";
import {
  type ActivityInput,
  activityInsertSql,
  type FieldChange,
  type IssueUpdatedField,
} from "../../activity/activity.query.js";
import { type IssueKey, issueKeyQuery } from "../../shared/resolve.query.js";
import type { IssueUpdateInput } from "../issue-shape.js";
import { type IssueRow, issueColumns } from "../issue-shape.js";
import * as refs from "./refs.query.js";

/** Values a plan sets as SQL itself: the statement's time, and null. */
export const SQL_NOW = raw("now()");
export const SQL_NULL = raw("null");

/**
 * The two statements of `PATCH /issues/{identifier}` (update.service.ts plans what changes between them):
 * one locking the issue and resolving every reference the update names, one writing the plan.
 */

/** The issue as it is (locked), with every reference the update names resolved beside it. */
export type CurrentRefs = IssueRow &
  Partial<refs.StateColumns> &
  refs.NamedRefs & {
    key: IssueKey | null;
    parentIdentifier: string | null;
    currentLabels: refs.LabelRef[];
    parentLoop: boolean | null;
  };

/** What an update writes, collected field by field before anything is written. */
export interface UpdatePlan {
  tx: WorkspaceScope;
  cur: CurrentRefs;
  key: IssueKey;
  input: IssueUpdateInput;
  /** The issue's columns to set, in order, and their values ({@link SQL_NOW}, {@link SQL_NULL} as such). */
  sets: [column: string, value: unknown][];
  /** The fields `issue_updated` records. */
  changes: Partial<Record<IssueUpdatedField, FieldChange>>;
  events: ActivityInput[];
  /** The issue's whole label set after the update, or null when it does not change. */
  labelIds: string[] | null;
  /** Labels created by naming them. */
  createdLabels: string[];
}

/**
 * One statement: locks the issue and reads it as the contract's `Issue`, with its parent's identifier and
 * labels, and resolves every reference the update names (creating new labels). Lock order: the project
 * named (share lock, taken first), then the issue row, then the new parent's key-share lock (still in this
 * workspace: a project moved elsewhere may have taken it), then new labels.
 */
export async function lockAndResolve(
  tx: WorkspaceScope,
  target: SqlFragment,
  input: IssueUpdateInput,
  wanted: Map<string, string> | undefined,
): Promise<CurrentRefs> {
  const ws = tx.workspace.id;
  const parentKey = input.parent != null ? issueKeyQuery(tx, input.parent) : undefined;
  if (input.project != null) await refs.shareLockProject(tx, input.project);
  return (await sqlOne<CurrentRefs>(
    tx.em,
    q`with ${raw(parentKey ? "recursive" : "")} target as (${target}),
        cur as (select i.* from issues i where i.id = (select id from target) and i.workspace_id = ${ws} for update)
        ${
          parentKey
            ? q`, parent as (${parentKey}),
          parent_row as (select x.id from issues x where x.id = (select id from parent) and x.workspace_id = ${ws}
                           for key share),
          descendants(id) as (
            select d.id from issues d where d.parent_id = (select id from cur)
            union
            select x.id from issues x join descendants on x.parent_id = descendants.id)`
            : EMPTY
        }
        ${wanted ? q`, ${refs.labelInsertCte(ws, wanted, "cur")}` : EMPTY}
      select (select to_json(k) from target k) as "key",
             ${issueColumns()},
             (select pt.key || '-' || pi.number from issues pi join teams pt on pt.id = pi.team_id
               where pi.id = i.parent_id) as "parentIdentifier",
             coalesce((select json_agg(json_build_object('id', l.id, 'name', l.name) order by l.name)
                         from issue_labels il join labels l on l.id = il.label_id where il.issue_id = i.id),
                      '[]') as "currentLabels",
             ${input.state !== undefined ? refs.stateColumns("i.team_id", input.state) : raw(`null as "newState"`)},
             ${refs.namedRefColumns(tx, input)},
             ${raw(
               parentKey
                 ? `(select to_json(p) from parent p join parent_row pr on pr.id = p.id) as "newParent",
                    (select p.id = i.id or exists (select 1 from descendants d where d.id = p.id) from parent p)
                      as "parentLoop"`
                 : `null as "newParent", null as "parentLoop"`,
             )},
             ${refs.labelColumns(ws, wanted)}
        from (select) as one left join cur i on true left join teams t on t.id = i.team_id`,
  ))!;
}

/** One statement: the issue's UPDATE, its labels, activity and change events, reading the issue back. */
export async function writeUpdate(plan: UpdatePlan): Promise<IssueRow> {
  const { tx, cur, labelIds, events } = plan;
  const recorded = changeEventsSql(
    "chg",
    tx.workspace.id,
    changeValues([issueChange(plan.key, "updated"), ...labelsCreated(plan.createdLabels)]),
  );
  const sets = [
    ...plan.sets.map(
      ([column, value]) => q`${raw(column)} = ${value}${raw(column === "due_date" ? "::date" : "")}`,
    ),
    raw("updated_at = now()"),
  ];
  const row = await sqlOne<IssueRow>(
    tx.em,
    q`with upd as (update issues set ${joinSql(sets, ", ")} where id = ${cur.id} returning *),
        ${
          labelIds !== null
            ? q`issue_label_del as (
          delete from issue_labels where issue_id = ${cur.id} and label_id <> all(${labelIds}::uuid[])),
        issue_label_ins as (
          insert into issue_labels (issue_id, label_id) select ${cur.id}::uuid, unnest(${labelIds}::uuid[])
              on conflict do nothing),`
            : EMPTY
        }
        ${events.length ? q`act as (${activityInsertSql(events)}),` : EMPTY}
        ${recorded.ctes}
      select ${issueColumns(labelIds ?? undefined)}, ${recorded.notify} as notified
        from upd i`,
  );
  return row!;
}
