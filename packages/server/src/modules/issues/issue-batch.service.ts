import { inTransaction } from "../../db/transaction.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { type FieldError, HttpProblem } from "../../http/problem.js";
import type { IssueOut } from "./issue.serialize.js";
import { createIssue } from "./issue-create.service.js";
import type { IssueCreateInput } from "./issue-write.js";

/**
 * `POST /issues/batch` (`createIssues` in the contract): every item created as `POST /issues` creates one,
 * in order, in one transaction. The first item of a team takes the team's number lock and later items of
 * that team find it held by their own transaction, so a batch pays one lock wait and one commit, not one
 * per issue. The first refusal rolls everything back and answers that item's problem, placed.
 */
export async function createIssues(scope: WorkspaceScope, inputs: IssueCreateInput[]): Promise<IssueOut[]> {
  return inTransaction(scope, async (tx) => {
    const created: IssueOut[] = [];
    for (const [index, input] of inputs.entries()) {
      try {
        created.push(await createIssue(tx, input));
      } catch (err) {
        throw err instanceof HttpProblem ? atItem(err, index, inputs.length) : err;
      }
    }
    return created;
  });
}

/** The item's problem, its detail prefixed with the item's position and its field paths moved under it. */
function atItem(problem: HttpProblem, index: number, count: number): HttpProblem {
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
