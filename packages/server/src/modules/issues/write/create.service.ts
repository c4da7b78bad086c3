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
 * `POST /issues`: creates an issue numbered next in its team: one statement resolving every reference
 * (taking the project's and the parent's locks and creating new labels), the contract's checks in the order
 * it checks them, then one statement writing the issue with its number, labels, activity and change events
 * and reading it back.
 *
 * With a project, a parent or labels named, the two run in one transaction (BEGIN and COMMIT around them),
 * as the first takes locks and may write. Without any (most creates), the first only reads and the second is
 * a single statement, atomic on its own: they run as two round trips and nothing more, and the team row's
 * lock, which orders concurrent creates' numbers, is held for the one statement only. A state, assignee or
 * cycle deleted between the two fails the write's foreign key, and the request is run again
 * (`retryingConflicts`), answering as for anything that does not exist, as inside a transaction.
 */
export async function createIssue(scope: WorkspaceScope, input: IssueCreateInput): Promise<IssueOut> {
  const planned = plannedLabels(input.labels);
  const plain =
    !scope.em.isInTransaction() && input.project == null && input.parent == null && !planned.wanted;
  if (plain) return create(scope, input, planned);
  return inTransaction(scope, (tx) => create(tx, input, planned));
}

async function create(
  tx: WorkspaceScope,
  input: IssueCreateInput,
  planned: ReturnType<typeof plannedLabels>,
): Promise<IssueOut> {
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
  const labels = wanted ? await labelsOf(tx.em, tx.workspace.id, wanted, refs) : { labels: [], created: [] };
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
}
