import { ISSUE_SORTS, ISSUE_SPECIAL_FILTERS, type QueryOf, STATE_TYPES } from "@tracker/sdk";

export type IssueQuery = QueryOf<"listIssues">;

/** A board or list loads its issues a page at a time, the largest page the API gives (200). */
export const BOARD_PAGE = 200;

/** The list filters of the contract's `listIssues` that the board keeps in its URL, so a link reproduces a view. */
export const FILTER_PARAMS = [
  "stateType",
  "assignee",
  "project",
  "cycle",
  "label",
  "special",
  "q",
  "sort",
] as const;

const list = (value: string | null) =>
  value
    ? value
        .split(",")
        .map((v) => v.trim())
        .filter(Boolean)
    : [];

/** Reads the URL's filters into a `listIssues` query, dropping values the contract does not know. */
export function queryFromSearch(search: URLSearchParams): IssueQuery {
  const query: IssueQuery = {};
  const stateTypes = list(search.get("stateType")).filter((v) =>
    (STATE_TYPES as readonly string[]).includes(v),
  );
  if (stateTypes.length) query.stateType = stateTypes as IssueQuery["stateType"];
  const special = list(search.get("special")).filter((v) =>
    (ISSUE_SPECIAL_FILTERS as readonly string[]).includes(v),
  );
  if (special.length) query.special = special as IssueQuery["special"];
  const labels = list(search.get("label"));
  if (labels.length) query.label = labels;
  for (const name of ["assignee", "project", "q"] as const) {
    const value = search.get(name);
    if (value) query[name] = value;
  }
  const cycle = search.get("cycle");
  if (cycle) query.cycle = cycle === "current" ? "current" : Number(cycle);
  const sort = search.get("sort");
  if (sort && (ISSUE_SORTS as readonly string[]).includes(sort)) query.sort = sort as IssueQuery["sort"];
  return query;
}

/** The URL query of a set of filters (arrays as comma lists, as the API takes them). */
export function searchFromQuery(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const name of FILTER_PARAMS) {
    const value = query[name];
    if (value === undefined || value === null || value === "") continue;
    if (Array.isArray(value)) {
      if (value.length) params.set(name, value.join(","));
    } else params.set(name, String(value));
  }
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
