import type { QueryOf, ResponseOf, Schemas, Tracker } from "@tracker/sdk";
import { matches } from "./issue-lists.js";
import type { IssueQuery } from "./pages/filters.js";
import { type Loaded, store, useData } from "./store.js";

type Issue = Schemas["Issue"];
export type IssueCounts = ResponseOf<"countIssues">;
export type CountGrouping = NonNullable<QueryOf<"countIssues">["groupBy"]>;

/**
 * What the cache holds for a count (every `counts:` key): the server's totals (the contract's
 * `countIssues`) for a list's filters, and those filters, so a change to an issue shown can be counted at
 * once.
 */
export interface CountsEntry {
  counts: IssueCounts;
  query: IssueQuery;
  groupBy: CountGrouping;
}

/** The list query as the count takes it: filters only (no paging, no sort). */
function countQuery(query: IssueQuery): Omit<IssueQuery, "sort" | "limit" | "offset"> {
  const { sort: _sort, limit: _limit, offset: _offset, ...filters } = query;
  return filters;
}

/**
 * The server's totals for the issues of `query`, by `groupBy`, kept under the list's cache key: the board's
 * column headers, a list's group headers, a cycle's or project's progress. `listKey` null reads nothing.
 */
export function useIssueCounts(
  tracker: Tracker,
  listKey: string | null,
  query: IssueQuery,
  groupBy: CountGrouping,
): Loaded<CountsEntry> {
  return useData<CountsEntry>(listKey === null ? null : `counts:${listKey}:${groupBy}`, async () => ({
    counts: await tracker.issues.counts({ ...countQuery(query), groupBy }),
    query,
    groupBy,
  }));
}

/** A group's count, 0 when the server listed none for `key`. */
export function countOf(entry: CountsEntry | undefined, key: string | number | null): number | undefined {
  if (!entry) return undefined;
  return entry.counts.groups.find((g) => g.key === key)?.count ?? 0;
}

/** The key an issue is counted under, as the server keys it; undefined when it is counted under several. */
const KEY_OF: Record<CountGrouping, ((issue: Issue) => string | number | null) | undefined> = {
  state: (i) => i.state.id,
  stateType: (i) => i.state.type,
  assignee: (i) => i.assignee?.id ?? null,
  priority: (i) => i.priority,
  project: (i) => i.project?.id ?? null,
  cycle: (i) => i.cycle?.id ?? null,
  team: (i) => i.team.id,
  // Labels count by id and an issue may carry several: refetched instead.
  label: undefined,
};

/**
 * Counts a change to an issue in every count cached: `before` (as a list showed it) leaves its group and
 * `after` joins its own, so a moved card moves between the column totals at once (and back when the save
 * is refused). A count whose filters cannot be decided here, or a change to an issue no list showed, or
 * a new or deleted one (`after` or `before` undefined), is refetched from the server instead.
 */
export function countChange(before: Issue | undefined, after: Issue | undefined): void {
  for (const key of store.keys(["counts:"])) {
    const entry = store.get(key)?.data as CountsEntry | undefined;
    if (!entry) continue;
    const keyOf = KEY_OF[entry.groupBy];
    const was = before && matches(entry.query, before);
    const is = after && matches(entry.query, after);
    if (!keyOf || !before || !after || was === undefined || is === undefined) {
      store.invalidate([key]);
      continue;
    }
    const from = was ? keyOf(before) : undefined;
    const to = is ? keyOf(after) : undefined;
    if (was === is && from === to) continue;
    store.set(key, (data) => {
      const current = data as CountsEntry;
      const groups = new Map(current.counts.groups.map((g) => [g.key, g.count]));
      let total = current.counts.total;
      if (was) {
        groups.set(from!, Math.max(0, (groups.get(from!) ?? 0) - 1));
        total--;
      }
      if (is) {
        groups.set(to!, (groups.get(to!) ?? 0) + 1);
        total++;
      }
      return {
        ...current,
        counts: {
          total: Math.max(0, total),
          groups: [...groups]
            .filter(([, count]) => count > 0)
            .map(([k, count]) => ({ key: k, count }))
            .sort((a, b) => b.count - a.count),
        },
      };
    });
  }
}
