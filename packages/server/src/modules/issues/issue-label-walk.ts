import type { CompiledIssueFilter, IssueFilter } from "./issue-filter.js";

/**
 * The first source of a list filtered by labels in `updated` order (`issueListQuery`): it walks each named
 * label's issues newest first in `issue_label_postings` (migration `issue_label_postings`), checking the
 * other labels, the workspace and the team in the index, and stops at the page. Without it PostgreSQL had
 * two plans, both growing with the workspace: the GIN index's intersection of the labels' posting lists
 * (a heap fetch per match, then a sort of all of them) or the default sort's index read backward until the
 * page is full (every issue of the workspace in turn); which one it picked hung on its estimate of how
 * often the labels meet (bench/README.md, "Labels in update order").
 */

/** Postings of one label the walk reads before the list's own statement follows. */
export const LABEL_WALK_ROWS = 4000;
/** Labels a filter may name for the walk: three or more meet on few issues, which the GIN index finds directly. */
const LABEL_WALK_MAX_LABELS = 2;
/** Filter keys the walk answers for: each is checked on the postings themselves. */
const LABEL_WALK_KEYS: ReadonlySet<string> = new Set(["label", "team", "sort", "limit", "offset"]);

/**
 * The label ids to walk for `filter`, or undefined when the walk does not apply: the filter names one or
 * two labels that each name one (`compiled.labelIds`), a team or none, nothing else, sorted by `updated`
 * either way.
 */
export function labelWalkIds(filter: IssueFilter, compiled: CompiledIssueFilter): string[] | undefined {
  const ids = compiled.labelIds;
  if (!ids?.length || ids.length > LABEL_WALK_MAX_LABELS) return undefined;
  if (filter.sort !== undefined && filter.sort !== "updated" && filter.sort !== "-updated") return undefined;
  const walkable = Object.entries(filter).every(
    ([key, value]) => value === undefined || LABEL_WALK_KEYS.has(key),
  );
  return walkable ? ids : undefined;
}

/**
 * A select of the first `need` ids (the page, what it skips, and one more) matching `compiled` in its
 * order, or of none when the walk cannot tell them. For each label in turn, up to LABEL_WALK_ROWS of its
 * postings in the list's order, keeping those `compiled.where` matches (every named label, the workspace,
 * the team or the teams the caller sees), until `need` are kept.
 *
 * Why that is the page: every match carries every named label, so a label's walk holds every match from
 * the newest down to the last posting it read. The walks together hold every match down to the oldest
 * posting any of them read, and only those. So they tell the page when they hold `need` distinct matches,
 * or when a walk read all of its label's postings (the walks stopped on their own, short of `need`, and
 * some label has fewer than LABEL_WALK_ROWS postings). Otherwise the matches are rare among the labels'
 * newest issues, and the GIN index finds them directly.
 */
export function labelWalkSource(
  compiled: CompiledIssueFilter,
  labelIds: string[],
  need: number,
): { text: string; params: unknown[]; prepare: "generic" } {
  return {
    text: `select h.id from (
        with hits as materialized (
          select i.issue_id as id, i.updated_at, i.team_id, i.number
            from unnest(?::uuid[]) l(id)
            cross join lateral (
              select i.issue_id, i.workspace_id, i.team_id, i.number, i.updated_at, i.label_ids
                from issue_label_postings i
               where i.label_id = l.id
               order by ${compiled.orderBy}
               limit ?) i
           where ${compiled.where}
           limit ?)
        select distinct h.id, h.updated_at, h.team_id, h.number from hits h
         where (select count(distinct id) from hits) >= ?
            or ((select count(*) from hits) < ?
                and exists (select 1 from unnest(?::uuid[]) e(id)
                             where (select count(*) from (select from issue_label_postings p
                                                           where p.label_id = e.id limit ?) p) < ?))
      ) h
      order by ${compiled.orderBy.replace(/\bi\./g, "h.")}`,
    params: [
      labelIds,
      LABEL_WALK_ROWS,
      ...compiled.params,
      need,
      need,
      need,
      labelIds,
      LABEL_WALK_ROWS,
      LABEL_WALK_ROWS,
    ],
    // The plan walks the postings whatever the labels; the list's own statement that may follow is
    // planned for them.
    prepare: "generic",
  };
}
