import { ISSUE_SORTS, type QueryOf, readListFilters, writeListFilters } from "@tracker/sdk";

export type IssueQuery = QueryOf<"listIssues">;

/** A board or list loads its issues a page at a time, the largest page the API gives (200). */
export const BOARD_PAGE = 200;

const SORTS: readonly string[] = ISSUE_SORTS;

/**
 * Reads the URL's filters into a `listIssues` query: every list filter of the contract (the SDK's
 * `LIST_FILTERS`, so a saved view's time windows and state survive the trip through a link) but the team,
 * which is in the path, and the sort. Values the contract does not know are dropped.
 */
export function queryFromSearch(search: URLSearchParams): IssueQuery {
  const { team: _team, ...filters } = readListFilters("issues", search);
  const query: IssueQuery = filters;
  const sort = search.get("sort");
  if (sort && SORTS.includes(sort)) query.sort = sort as IssueQuery["sort"];
  return query;
}

/** The URL query of a set of filters (arrays as comma lists, as the API takes them), the sort last. */
export function searchFromQuery(query: Record<string, unknown>): string {
  const { team: _team, ...filters } = query;
  const params = writeListFilters("issues", filters);
  if (typeof query.sort === "string" && query.sort) params.set("sort", query.sort);
  const text = params.toString().replace(/%2C/g, ",");
  return text ? `?${text}` : "";
}

/** The cache key and `listIssues` query of a team's board or list (or every team's list) for a URL's filters. */
export function issuesQuery(
  teamKey: string | undefined,
  search: URLSearchParams,
): { key: string; filters: IssueQuery; query: IssueQuery } {
  const filters = queryFromSearch(search);
  return {
    key: `issues:${teamKey ?? "*"}:${searchFromQuery(filters)}`,
    filters,
    query: { ...filters, ...(teamKey ? { team: teamKey } : {}) },
  };
}
