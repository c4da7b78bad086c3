import { inTransaction } from "../../../db/transaction.js";
import type { WorkspaceScope } from "../../../http/handler.js";
import { type FieldError, HttpProblem, Invalid, NotFound } from "../../../http/problem.js";
import { ISSUE_IDENTIFIER, type IssueKey, isUuid } from "../../shared/resolve.query.js";
import type { IssueCreateInput } from "../issue-shape.js";
import { type IssueOut, issueFromRow } from "../issue-shape.js";
import {
  type BatchItem,
  createLabels,
  type ItemRefs,
  resolveParents,
  resolveRefs,
  writeIssues,
} from "./batch.query.js";
import { createIssue } from "./create.service.js";
import * as issueRefs from "./refs.query.js";
import { plannedLabels } from "./refs.query.js";

/**
 * `POST /issues/batch` (`createIssues` in the contract): every item created as `POST /issues` creates one
 * (create.service.ts), in order, in one transaction, all or nothing, but set-based: whatever the
 * number of items, a handful of statements.
 *
 * 1. the named projects share-locked (one statement, when any is named);
 * 2. every item's team, state, assignee, project and cycle resolved in one statement, once per distinct
 *    combination of them (an import names the same few);
 * 3. the named parents resolved and key-share locked (one statement, when any is named);
 * 4. the checks, item by item in order, with the single create's checks and messages: the first refusal
 *    answers that item's problem, placed, and nothing has been written;
 * 5. new labels created (one statement, when any item names labels);
 * 6. one statement that locks the batch's teams in id order, bumps each team's counter once by its number
 *    of items, and inserts the issues (numbered in request order within each team), their labels, their
 *    activity and their change events, returning the issues in request order.
 *
 * The locks come in the order a single create takes them: projects, parents, new labels, then teams.
 * An item whose parent is an issue the batch itself creates before it (`ENG-7` named by the item after the
 * one numbered 7) cannot be resolved before the numbers exist, so such a batch is created item by item, as
 * single creates in one transaction, which resolves it exactly as before.
 */
export async function createIssues(scope: WorkspaceScope, inputs: IssueCreateInput[]): Promise<IssueOut[]> {
  const planned = inputs.map((input) => plannedLabels(input.labels));
  return inTransaction(scope, async (tx) => {
    await issueRefs.shareLockProjects(tx, [
      ...new Set(inputs.flatMap((i) => (i.project != null ? [i.project] : []))),
    ]);
    const refs = await resolveRefs(tx, inputs);
    const parents = await resolveParents(tx, inputs);
    if (namesParentInBatch(inputs, refs)) return createEach(tx, inputs);

    const items = inputs.map((input, index) => {
      try {
        return checkItem(tx, input, refs[index]!, parents.get(index), planned[index]!.error);
      } catch (err) {
        throw err instanceof HttpProblem ? atItem(err, index, inputs.length) : err;
      }
    });
    const labels = await createLabels(
      tx,
      planned.map((p) => p.wanted),
    );
    return (await writeIssues(tx, inputs, items, labels)).map(issueFromRow);
  });
}

/** Every item created as a single create, in order: the batch as it was before it was set-based. */
async function createEach(tx: WorkspaceScope, inputs: IssueCreateInput[]): Promise<IssueOut[]> {
  const created: IssueOut[] = [];
  for (const [index, input] of inputs.entries()) {
    try {
      created.push(await createIssue(tx, input));
    } catch (err) {
      throw err instanceof HttpProblem ? atItem(err, index, inputs.length) : err;
    }
  }
  return created;
}

/**
 * Whether an item names as its parent an identifier an earlier item of the batch could take: its team's
 * key, with a number above the team's counter as read (numbers at or below it are never handed out again).
 */
function namesParentInBatch(inputs: IssueCreateInput[], refs: ItemRefs[]): boolean {
  const seen = new Map<string, number>();
  return inputs.some((input, index) => {
    const m =
      input.parent != null && !isUuid(input.parent) ? ISSUE_IDENTIFIER.exec(input.parent.trim()) : null;
    const counter = m ? seen.get(m[1]!.toUpperCase()) : undefined;
    const team = refs[index]!.team;
    if (team && !seen.has(team.key)) seen.set(team.key, refs[index]!.counter ?? 0);
    return counter !== undefined && Number(m![2]) > counter;
  });
}

/** Step 4: one item's references checked as a single create checks them, in the contract's order. */
function checkItem(
  tx: WorkspaceScope,
  input: IssueCreateInput,
  refs: ItemRefs,
  parent: IssueKey | undefined,
  labelError: unknown,
): BatchItem {
  const team = refs.team;
  if (!team) throw new NotFound(`No team "${input.team}" in this workspace.`);
  const state = issueRefs.checkState(refs, input.state);
  const assignee =
    input.assignee != null ? issueRefs.checkAssignee(tx, refs.newAssignee, input.assignee, team.key) : null;
  const project =
    input.project != null ? issueRefs.checkProject(refs.newProject, input.project, team.key) : null;
  const cycle = input.cycle != null ? issueRefs.checkCycle(refs.newCycle, input.cycle) : null;
  if (input.parent != null && !parent) throw new NotFound(`No issue "${input.parent}" in this workspace.`);
  if (labelError) throw labelError;
  return { team, state, assignee, project, cycle, parent: parent ?? null };
}

/** The item's problem, its detail prefixed with the item's position and its field paths moved under it. */
export function atItem(problem: HttpProblem, index: number, count: number): HttpProblem {
  const path = `/body/issues/${index}`;
  const own = (problem.extra.errors as FieldError[] | undefined) ?? [];
  const errors: FieldError[] = [
    { path, message: problem.message },
    ...own.map((e) => ({ ...e, path: e.path.replace(/^\/body/, path) })),
  ];
  return new HttpProblem(
    problem.status,
    problem.code,
    problem.title,
    `Issue ${index + 1} of ${count}: ${problem.message}`,
    { ...problem.extra, errors },
  );
}

/** An `errors[].path` inside an item of the batch: `/body/issues/<index>`, alone or followed by `/…`. */
const ITEM_PATH = /^\/body\/issues\/(\d+)(?:\/|$)/;

/**
 * A refusal of the batch's input before it runs (its schema, or a value no field can store), placed as
 * {@link atItem} places a rule's: the contract's `createIssues` gives a refused item's problem as the one
 * that item would get from `POST /issues`, its `detail` prefixed with the item's position. When every
 * offending field lies in an item, the first such item answers, with its own fields alone; a refusal of
 * anything else (an unknown field of the batch, the number of items) stays the request's.
 */
export function placeItemRefusal(problem: Invalid, body: unknown): HttpProblem {
  const errors = (problem.extra.errors as FieldError[] | undefined) ?? [];
  const items = errors.map((e) => ITEM_PATH.exec(e.path)?.[1]);
  if (!errors.length || items.some((i) => i === undefined)) return problem;
  const index = Math.min(...items.map(Number));
  const at = `/body/issues/${index}`;
  const own = errors
    .filter((e) => e.path === at || e.path.startsWith(`${at}/`))
    .map((e) => ({ ...e, path: `/body${e.path.slice(at.length)}` }));
  const issues = (body as { issues?: unknown } | undefined)?.issues;
  return atItem(new Invalid(problem.message, own), index, Array.isArray(issues) ? issues.length : index + 1);
}
