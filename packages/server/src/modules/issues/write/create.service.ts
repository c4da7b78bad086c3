import { inTransaction } from "../../../db/transaction.js";
import type { WorkspaceScope } from "../../../http/handler.js";
import { NotFound } from "../../../http/problem.js";
import type { IssueCreateInput } from "../issue-shape.js";
import { type IssueOut, issueFromRow } from "../issue-shape.js";
import { insertIssue, resolveCreateRefs } from "./create.query.js";
import {
  checkAssignee,
  checkCycle,
  checkProject,
  checkState,
  labelsOf,
  plannedLabels,
} from "./refs.query.js";

/**
 * `POST /issues`: creates an issue numbered next in its team. Four round trips: BEGIN, one statement
 * resolving every reference (taking the parent's lock and creating new labels), one writing the issue with
 * its number, labels, activity and change events and reading it back, COMMIT. The references are checked in
 * between, in the order the contract checks them.
 */
export async function createIssue(scope: WorkspaceScope, input: IssueCreateInput): Promise<IssueOut> {
  const planned = plannedLabels(input.labels);
  return inTransaction(scope, async (tx) => {
    const wanted = planned.wanted;
    const refs = await resolveCreateRefs(tx, input, wanted);
    const team = refs.team;
    if (!team) throw new NotFound(`No team "${input.team}" in this workspace.`);
    const state = checkState(refs, input.state);
    const assignee =
      input.assignee != null ? checkAssignee(tx, refs.newAssignee, input.assignee, team.key) : null;
    const project = input.project != null ? checkProject(refs.newProject, input.project, team.key) : null;
    const cycle = input.cycle != null ? checkCycle(refs.newCycle, input.cycle) : null;
    if (input.parent != null && !refs.newParent)
      throw new NotFound(`No issue "${input.parent}" in this workspace.`);
    if (planned.error) throw planned.error;
    const labels = wanted
      ? await labelsOf(tx.em, tx.workspace.id, wanted, refs)
      : { labels: [], created: [] };
    const row = await insertIssue(tx, input, {
      team,
      state,
      assignee,
      project,
      cycle,
      parentId: refs.newParent?.id ?? null,
      labelIds: labels.labels.map((l) => l.id),
      createdLabels: labels.created,
    });
    return issueFromRow(row);
  });
}
