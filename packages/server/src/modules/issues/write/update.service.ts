import { inTransaction } from "../../../db/transaction.js";
import { labelsCreated, recordChanges } from "../../../events/record-change.query.js";
import type { WorkspaceScope } from "../../../http/handler.js";
import { Invalid, NotFound } from "../../../http/problem.js";
import { isFinished, type StateType } from "../../../rules/state-types.js";
import type { ActivityInput, StateBrief, UserBrief } from "../../activity/activity.query.js";
import { findAgent } from "../../agents/agent.query.js";
import { openSession } from "../../agents/agent.service.js";
import { issueKeyQuery, type NamedRow } from "../../shared/resolve.query.js";
import type { IssueUpdateInput } from "../issue-shape.js";
import { type IssueOut, issueFromRow } from "../issue-shape.js";
import * as refs from "./refs.query.js";
import { plannedLabels } from "./refs.query.js";
import { lockAndResolve, SQL_NOW, SQL_NULL, type UpdatePlan, writeUpdate } from "./update.query.js";

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
    const delegate = await planDelegate(plan);
    planProject(plan);
    planCycle(plan);
    planParent(plan);
    if (planned.error) throw planned.error;
    await planLabels(plan, planned.wanted);
    if (Object.keys(plan.changes).length)
      event(plan, { type: "issue_updated", payload: { changes: plan.changes } });
    if (plan.sets.length === 0 && plan.labelIds === null) {
      // Nothing about the issue changed; labels named for the first time still exist now.
      await recordChanges(tx.em, tx.workspace.id, labelsCreated(plan.createdLabels));
      return issueFromRow(cur);
    }
    const written = issueFromRow(await writeUpdate(plan));
    // Delegating opens a session and tells the agent, in the update's transaction.
    if (delegate) await openSession(tx, plan.key, delegate, "delegated");
    return written;
  });
}

/** `labels` replaces the set, `addLabels`/`removeLabels` edit it: one or the other. */
function checkLabelArguments(input: IssueUpdateInput): void {
  if (input.labels !== undefined && (input.addLabels !== undefined || input.removeLabels !== undefined))
    throw new Invalid("Give either `labels` (the whole set) or `addLabels`/`removeLabels`, not both.", [
      { path: "/body/labels", message: "may not be combined with addLabels or removeLabels" },
    ]);
}

function set(plan: UpdatePlan, column: string, value: unknown): void {
  plan.sets.push([column, value]);
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
    set(plan, column, to);
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
  if (!isFinished(state.type)) set(plan, "completed_at", SQL_NULL);
  else if (state.type !== cur.state.type) set(plan, "completed_at", SQL_NOW);
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

/**
 * A new delegate: an agent of the workspace by name or id that sees the issue's team (400 naming
 * `delegate` otherwise), recorded in `issue_updated`. The agent newly delegated to, to open its session.
 */
async function planDelegate(plan: UpdatePlan): Promise<UserBrief | undefined> {
  const { cur, input, tx } = plan;
  if (input.delegate === undefined) return undefined;
  let agent: UserBrief | null = null;
  if (input.delegate !== null) {
    const found = await findAgent(tx, input.delegate.trim(), cur.team.id);
    if (!found?.sees)
      throw new Invalid(
        found
          ? `The agent "${found.name}" cannot see ${cur.team.key}'s issues.`
          : `No agent "${input.delegate}" in this workspace.`,
        [{ path: "/body/delegate", message: "must name an agent (listAgents) that sees the issue's team" }],
      );
    agent = { id: found.id, name: found.name };
  }
  if ((agent?.id ?? null) === (cur.delegate?.id ?? null)) return undefined;
  set(plan, "delegate_id", agent?.id ?? null);
  plan.changes.delegate = { from: cur.delegate, to: agent };
  return agent ?? undefined;
}

function planProject(plan: UpdatePlan): void {
  const { cur, input } = plan;
  if (input.project === undefined) return;
  const project: NamedRow | null =
    input.project === null ? null : refs.checkProject(cur.newProject, input.project, cur.team.key);
  const brief = (p: NamedRow | null) => (p ? { id: p.id, name: p.name } : null);
  planReference(plan, "project", brief(cur.project), brief(project));
}

function planCycle(plan: UpdatePlan): void {
  const { cur, input } = plan;
  if (input.cycle === undefined) return;
  const cycle = input.cycle === null ? null : refs.checkCycle(cur.newCycle, input.cycle);
  const brief = (c: { id: string; number: number } | null) => (c ? { id: c.id, number: c.number } : null);
  planReference(plan, "cycle", brief(cur.cycle), brief(cycle));
}

/** A new project or cycle (or none): its column set and the change `issue_updated` records, when it differs. */
function planReference<T extends { id: string }>(
  plan: UpdatePlan,
  field: "project" | "cycle",
  from: T | null,
  to: T | null,
): void {
  if ((to?.id ?? null) === (from?.id ?? null)) return;
  set(plan, `${field}_id`, to?.id ?? null);
  plan.changes[field] = { from, to };
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
