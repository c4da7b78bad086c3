import { joinSql, q, raw, type SqlFragment } from "../../db/sql-fragment.js";
import { inTransaction } from "../../db/transaction.js";
import { changeEventsSql, changeValues, recordChanges } from "../../events/record-change.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { Invalid, NotFound } from "../../http/problem.js";
import type { StateType } from "../../rules/state-types.js";
import { isFinished } from "../../rules/state-types.js";
import {
  type ActivityInput,
  activityInsertSql,
  type FieldChange,
  type IssueUpdatedField,
  type StateBrief,
  type UserBrief,
} from "../activity/activity.service.js";
import { type IssueKey, issueKeyQuery, type NamedRow } from "../shared/resolve.js";
import { type IssueOut, type IssueRow, issueColumns, issueFromRow } from "./issue.serialize.js";
import * as refs from "./issue-refs.js";
import {
  EMPTY,
  type IssueUpdateInput,
  issueChange,
  labelChanges,
  plannedLabels,
  run,
} from "./issue-write.js";

/** The issue as it is (locked), with every reference the update names resolved beside it. */
type CurrentRefs = IssueRow &
  Partial<refs.StateColumns> &
  refs.NamedRefs & {
    key: IssueKey | null;
    parentIdentifier: string | null;
    currentLabels: refs.LabelRef[];
    parentLoop: boolean | null;
  };

/** What an update writes, collected field by field before anything is written. */
interface UpdatePlan {
  tx: WorkspaceScope;
  cur: CurrentRefs;
  key: IssueKey;
  input: IssueUpdateInput;
  /** `column = value` terms of the issue's UPDATE. */
  sets: SqlFragment[];
  /** The fields `issue_updated` records. */
  changes: Partial<Record<IssueUpdatedField, FieldChange>>;
  events: ActivityInput[];
  /** The issue's whole label set after the update, or null when it does not change. */
  labelIds: string[] | null;
  /** Labels created by naming them. */
  createdLabels: string[];
}

/**
 * Partial update in one transaction (the issue row locked). Records `state_changed`, `assignee_changed`,
 * `labels_changed` and one `issue_updated` for the other fields; a no-op writes nothing at all. Four round
 * trips: BEGIN, one statement locking the issue and resolving every reference (creating new labels), one
 * writing the changes with their activity and change events and reading the issue back, COMMIT.
 */
export async function updateIssue(
  scope: WorkspaceScope,
  ref: string,
  input: IssueUpdateInput,
): Promise<IssueOut> {
  checkLabelArguments(input);
  const planned = plannedLabels([...(input.labels ?? []), ...(input.addLabels ?? [])]);
  const target = issueKeyQuery(scope, ref);
  if (!target) throw new NotFound(`No issue "${ref}" in this workspace.`);
  return inTransaction(scope, async (tx) => {
    const cur = await lockAndResolve(tx, target, input, planned.wanted);
    if (!cur.key || !cur.id) throw new NotFound(`No issue "${ref}" in this workspace.`);
    const plan: UpdatePlan = {
      tx,
      cur,
      key: cur.key,
      input,
      sets: [],
      changes: {},
      events: [],
      labelIds: null,
      createdLabels: [],
    };
    // In the order the contract checks the references.
    planPlainFields(plan);
    planState(plan);
    planAssignee(plan);
    planProject(plan);
    planCycle(plan);
    planParent(plan);
    if (planned.error) throw planned.error;
    await planLabels(plan, planned.wanted);
    if (Object.keys(plan.changes).length)
      event(plan, { type: "issue_updated", payload: { changes: plan.changes } });
    if (plan.sets.length === 0 && plan.labelIds === null) {
      // Nothing about the issue changed; labels named for the first time still exist now.
      await recordChanges(tx.em, tx.workspace.id, labelChanges(plan.createdLabels));
      return issueFromRow(cur);
    }
    return write(plan);
  });
}

/** `labels` replaces the set, `addLabels`/`removeLabels` edit it: one or the other. */
function checkLabelArguments(input: IssueUpdateInput): void {
  if (input.labels !== undefined && (input.addLabels !== undefined || input.removeLabels !== undefined))
    throw new Invalid("Give either `labels` (the whole set) or `addLabels`/`removeLabels`, not both.", [
      { path: "/body/labels", message: "may not be combined with addLabels or removeLabels" },
    ]);
}

/**
 * One statement: locks the issue and reads it as the contract's `Issue`, with its parent's identifier and
 * labels, and resolves every reference the update names (creating new labels). Lock order: the project
 * named (share lock, taken first), then the issue row, then the new parent's key-share lock (still in this
 * workspace: a project moved elsewhere may have taken it), then new labels.
 */
async function lockAndResolve(
  tx: WorkspaceScope,
  target: SqlFragment,
  input: IssueUpdateInput,
  wanted: Map<string, string> | undefined,
): Promise<CurrentRefs> {
  const ws = tx.workspace.id;
  const parentKey = input.parent != null ? issueKeyQuery(tx, input.parent) : undefined;
  if (input.project != null) await refs.shareLockProject(tx, input.project);
  return (await run<CurrentRefs>(
    tx,
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

function set(plan: UpdatePlan, column: string, value: unknown, cast = ""): void {
  plan.sets.push(q`${raw(column)} = ${value}${raw(cast)}`);
}

function event(plan: UpdatePlan, e: Omit<ActivityInput, "workspaceId" | "issueId" | "actorId">): void {
  plan.events.push({
    workspaceId: plan.tx.workspace.id,
    issueId: plan.cur.id,
    actorId: plan.tx.caller.userId,
    ...e,
  } as ActivityInput);
}

/** Title, description, priority, estimate and due date: recorded together in `issue_updated`. */
function planPlainFields(plan: UpdatePlan): void {
  const { cur, input } = plan;
  const plain = [
    ["title", "title", cur.title, input.title],
    ["description", "description", cur.description, input.description],
    ["priority", "priority", cur.priority, input.priority],
    ["estimate", "estimate", cur.estimate, input.estimate],
    ["dueDate", "due_date", cur.dueDate, input.dueDate],
  ] as const;
  for (const [field, column, from, to] of plain) {
    if (to === undefined || to === from) continue;
    set(plan, column, to, column === "due_date" ? "::date" : "");
    plan.changes[field] = { from, to };
  }
}

/** A new state: `state_changed`, and `completed_at` set on entering a finished type, cleared on leaving. */
function planState(plan: UpdatePlan): void {
  const { cur, input } = plan;
  if (input.state === undefined) return;
  const state = refs.checkState(cur as refs.StateColumns, input.state);
  if (state.id === cur.state.id) return;
  set(plan, "state_id", state.id);
  set(plan, "state_type", state.type);
  if (!isFinished(state.type)) plan.sets.push(raw("completed_at = null"));
  else if (state.type !== cur.state.type) plan.sets.push(raw("completed_at = now()"));
  const from: StateBrief = { id: cur.state.id, name: cur.state.name, type: cur.state.type as StateType };
  event(plan, {
    type: "state_changed",
    payload: { from, to: { id: state.id, name: state.name, type: state.type } },
  });
}

function planAssignee(plan: UpdatePlan): void {
  const { cur, input, tx } = plan;
  if (input.assignee === undefined) return;
  const assignee: UserBrief | null =
    input.assignee === null ? null : refs.checkAssignee(tx, cur.newAssignee, input.assignee, cur.team.key);
  if ((assignee?.id ?? null) === (cur.assignee?.id ?? null)) return;
  set(plan, "assignee_id", assignee?.id ?? null);
  const from = cur.assignee ? { id: cur.assignee.id, name: cur.assignee.name } : null;
  event(plan, { type: "assignee_changed", payload: { from, to: assignee } });
}

function planProject(plan: UpdatePlan): void {
  const { cur, input } = plan;
  if (input.project === undefined) return;
  const project: NamedRow | null =
    input.project === null ? null : refs.checkProject(cur.newProject, input.project, cur.team.key);
  if ((project?.id ?? null) === (cur.project?.id ?? null)) return;
  set(plan, "project_id", project?.id ?? null);
  plan.changes.project = {
    from: cur.project ? { id: cur.project.id, name: cur.project.name } : null,
    to: project ? { id: project.id, name: project.name } : null,
  };
}

function planCycle(plan: UpdatePlan): void {
  const { cur, input } = plan;
  if (input.cycle === undefined) return;
  const cycle = input.cycle === null ? null : refs.checkCycle(cur.newCycle, input.cycle);
  if ((cycle?.id ?? null) === (cur.cycle?.id ?? null)) return;
  set(plan, "cycle_id", cycle?.id ?? null);
  plan.changes.cycle = {
    from: cur.cycle ? { id: cur.cycle.id, number: cur.cycle.number } : null,
    to: cycle ? { id: cycle.id, number: cycle.number } : null,
  };
}

/** A new parent must be visible and neither the issue itself nor one of its sub-issues. */
function planParent(plan: UpdatePlan): void {
  const { cur, input, key } = plan;
  if (input.parent === undefined) return;
  const parent = input.parent === null ? null : cur.newParent;
  if (input.parent !== null && !parent) throw new NotFound(`No issue "${input.parent}" in this workspace.`);
  if (parent && cur.parentLoop)
    throw new Invalid(
      `${parent.identifier} cannot be the parent of ${key.identifier}: that would make a loop.`,
      [{ path: "/body/parent", message: "may not be the issue itself or one of its sub-issues" }],
    );
  if ((parent?.id ?? null) === cur.parentId) return;
  set(plan, "parent_id", parent?.id ?? null);
  plan.changes.parent = { from: cur.parentIdentifier, to: parent?.identifier ?? null };
}

/**
 * The label set after `labels` (the whole set) or `addLabels`/`removeLabels` (edits, names matched
 * case-insensitively), with `labels_changed` when it differs.
 */
async function planLabels(plan: UpdatePlan, wanted: Map<string, string> | undefined): Promise<void> {
  const { cur, input, tx } = plan;
  const touchesLabels =
    input.labels !== undefined || input.addLabels !== undefined || input.removeLabels !== undefined;
  if (!touchesLabels) return;
  const ensured = wanted
    ? await refs.labelsOf(tx.em, tx.workspace.id, wanted, cur)
    : { labels: [], created: [] };
  plan.createdLabels = ensured.created;
  const removing = new Set((input.removeLabels ?? []).map((n) => n.trim().toLowerCase()));
  const next = new Map<string, refs.LabelRef>();
  if (input.labels === undefined) for (const l of cur.currentLabels) next.set(l.id, l);
  for (const l of ensured.labels) next.set(l.id, l);
  for (const l of [...next.values()]) if (removing.has(l.name.toLowerCase())) next.delete(l.id);
  const before = new Set(cur.currentLabels.map((l) => l.id));
  const added = [...next.values()].filter((l) => !before.has(l.id)).map((l) => l.name);
  const removed = cur.currentLabels.filter((l) => !next.has(l.id)).map((l) => l.name);
  if (added.length || removed.length) {
    plan.labelIds = [...next.keys()];
    event(plan, { type: "labels_changed", payload: { added: added.sort(), removed: removed.sort() } });
  }
}

/** One statement: the issue's UPDATE, its labels, activity and change events, reading the issue back. */
async function write(plan: UpdatePlan): Promise<IssueOut> {
  const { tx, cur, labelIds, events } = plan;
  const recorded = changeEventsSql(
    "chg",
    tx.workspace.id,
    changeValues([issueChange(plan.key, "updated"), ...labelChanges(plan.createdLabels)]),
  );
  const sets = [...plan.sets, raw("updated_at = now()")];
  const row = await run<IssueRow>(
    tx,
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
  return issueFromRow(row!);
}
