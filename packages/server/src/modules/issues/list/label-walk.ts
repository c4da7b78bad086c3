import { setsOnly } from "../../../db/sql.js";
import { type CompiledIssueFilter, type IssueFilter, orderByOver, sortsByUpdated } from "./filter.js";

/**
 * The first source of a list filtered by labels in `updated` order (`issueListQuery`): it walks one named
 * label's issues newest first in `issue_label_postings` (migration `issue_label_postings`), checking the
 * other label, the workspace and the caller's teams in the index, and stops at the page. Without it PostgreSQL had
 * two plans, both growing with the workspace: the GIN index's intersection of the labels' posting lists
 * (a heap fetch per match, then a sort of all of them) or the default sort's index read backward until the
 * page is full (every issue of the workspace in turn); which one it picked hung on its estimate of how
 * often the labels meet (bench/README.md, "Labels in update order").
 */

/** Postings of one label the walk reads before the list's own statement follows. */
export const LABEL_WALK_ROWS = 4000;
/** Labels a filter may name for the walk: three or more meet on few issues, which the GIN index finds directly. */
const LABEL_WALK_MAX_LABELS = 2;
/**
 * Filter keys the walk answers for. Not `team`: a team holds a few percent of a label's issues, so a walk of
 * its newest postings rarely holds a page of them, and the GIN index, intersected with the team, follows.
 */
const LABEL_WALK_KEYS: ReadonlySet<string> = new Set(["label", "sort", "limit", "offset"]);

/**
 * The label to walk for `filter`, or undefined when the walk does not apply: the filter names one or two
 * labels that each name one (`compiled.labelIds`) and nothing else but paging, sorted by `updated` either
 * way. Of two labels, the first named: which of them is rarer is not known here.
 */
export function labelToWalk(filter: IssueFilter, compiled: CompiledIssueFilter): string | undefined {
  const ids = compiled.labelIds;
  if (!ids?.length || ids.length > LABEL_WALK_MAX_LABELS) return undefined;
  return sortsByUpdated(filter) && setsOnly(filter, LABEL_WALK_KEYS) ? ids[0] : undefined;
}

/**
 * A select of the first `need` ids (the page, what it skips, and one more) matching `compiled` in its
 * order, or of none when the walk cannot tell them: up to LABEL_WALK_ROWS of `label`'s postings in the
 * list's order, keeping those `compiled.where` matches (every named label, the workspace, the teams the
 * caller sees, not archived: the posting's `issue_id` is the `id` it checks), until `need` are kept.
 *
 * Why that is the page: every match carries `label`, so the walk holds every match from the newest down to
 * the last posting it read, and only those. It tells the page when it holds `need` matches, or when it read
 * all of the label's postings (fewer than LABEL_WALK_ROWS, counted only then). Otherwise the matches are
 * rare among the label's newest issues, and the GIN index finds them directly: the walk then cost one read
 * of LABEL_WALK_ROWS index entries, and the count another.
 */
export function labelWalkSource(
  compiled: CompiledIssueFilter,
  label: string,
  need: number,
): { text: string; params: unknown[]; prepare: "generic" } {
  return {
    text: `select h.id from (
        with hits as materialized (
          select i.issue_id as id, i.updated_at, i.team_id, i.number
            from (select i.issue_id, i.issue_id as id, i.workspace_id, i.team_id, i.number, i.updated_at, i.label_ids
                    from issue_label_postings i
                   where i.label_id = ?
                   order by ${compiled.orderBy}
                   limit ?) i
           where ${compiled.where}
           limit ?)
        select * from hits
         where (select count(*) from hits) >= ?
            or (select count(*) from (select from issue_label_postings p where p.label_id = ? limit ?) p) < ?
      ) h
      order by ${orderByOver(compiled.orderBy, "h")}`,
    params: [label, LABEL_WALK_ROWS, ...compiled.params, need, need, label, LABEL_WALK_ROWS, LABEL_WALK_ROWS],
    // The plan walks the postings whatever the label; the list's own statement that may follow is planned
    // for the labels.
    prepare: "generic",
  };
}
