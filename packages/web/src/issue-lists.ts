import { type Schemas, STATE_TYPES, type Tracker } from "@tracker/sdk";
import { countChange } from "./issue-counts.js";
import { BOARD_PAGE, type IssueQuery } from "./pages/filters.js";
import { store } from "./store.js";

type Issue = Schemas["Issue"];

/**
 * What the cache holds for a board or list (every `issues:` key): the pages loaded so far, in the
 * server's order, the `nextOffset` of the page after them, and the query that produced them, so a live
 * change can tell whether an issue belongs there.
 */
export interface IssuePages {
  items: Issue[];
  nextOffset: number | null;
  query: IssueQuery;
}

/**
 * A board column's own list: the board's filters and the column's state (the contract's `listIssues`
 * takes `state` with `team`), paged on its own, so each column loads, counts and scrolls by itself.
 */
export function columnList(
  key: string,
  query: IssueQuery,
  state: Pick<Schemas["WorkflowState"], "name" | "type">,
): { key: string; query: IssueQuery } | null {
  // A state type the filters leave out has nothing to list; with a state named, only its column lists.
  if (query.stateType?.length && !query.stateType.includes(state.type)) return null;
  if (query.state && query.state.toLowerCase() !== state.name.toLowerCase()) return null;
  return { key: `${key}#${state.name}`, query: { ...query, state: state.name } };
}

/**
 * The first pages of `query`, enough to hold `atLeast` issues: a refetch of a list scrolled down three
 * pages brings back three pages, not one.
 */
export async function fetchIssues(
  tracker: Tracker,
  query: IssueQuery,
  atLeast = 0,
  signal?: AbortSignal,
): Promise<IssuePages> {
  const items: Issue[] = [];
  let offset: number | null = 0;
  do {
    const page = await tracker.issues.list({ ...query, limit: BOARD_PAGE, offset }, signal ? { signal } : {});
    items.push(...page.items);
    offset = page.nextOffset;
  } while (offset !== null && items.length < atLeast);
  return { items, nextOffset: offset, query };
}

/** The fetcher of a list's cache key: as many issues as are shown now. */
export function issuesFetcher(
  tracker: Tracker,
  key: string,
  query: IssueQuery,
): (signal?: AbortSignal) => Promise<IssuePages> {
  return (signal) => fetchIssues(tracker, query, pagesOf(key)?.items.length ?? 0, signal);
}

function pagesOf(key: string): IssuePages | undefined {
  const data = store.get(key)?.data as IssuePages | undefined;
  return data && Array.isArray(data.items) && "query" in data ? data : undefined;
}

/** Appends the next page of a list (the contract's `nextOffset`); issues already shown are not repeated. */
export async function loadMoreIssues(tracker: Tracker, key: string): Promise<void> {
  const loaded = pagesOf(key);
  if (!loaded || loaded.nextOffset === null) return;
  const page = await tracker.issues.list({ ...loaded.query, limit: BOARD_PAGE, offset: loaded.nextOffset });
  store.set(key, (data) => {
    const current = data as IssuePages;
    const seen = new Set(current.items.map((i) => i.id));
    return {
      ...current,
      items: [...current.items, ...page.items.filter((i) => !seen.has(i.id))],
      nextOffset: page.nextOffset,
    };
  });
}

/**
 * Puts an issue as the server now has it into every list shown or cached: replaced where it is, moved
 * to where the list's sort puts it, added to lists whose filters it now matches, taken out of those it
 * no longer matches. A list whose filters cannot be decided here (text search, computed filters, the
 * current cycle, `me`) is refetched instead.
 */
export function applyIssue(issue: Issue, shown: Issue | undefined = shownCopy(issue.id)): void {
  // The issue as the lists showed it until now (`shown`): the counts move it from that group to its new one.
  countChange(shown, issue);
  for (const key of store.keys(["issues:"])) {
    const loaded = pagesOf(key);
    if (!loaded) continue;
    const match = matches(loaded.query, issue);
    if (match === undefined) {
      store.invalidate([key]);
      continue;
    }
    store.set(key, () => place(loaded, issue, match));
  }
}

/** Takes a deleted (or no longer visible) issue out of every list. */
export function removeIssue(id: string): void {
  countChange(shownCopy(id), undefined);
  for (const key of store.keys(["issues:"])) {
    const loaded = pagesOf(key);
    if (loaded?.items.some((i) => i.id === id)) store.set(key, () => place(loaded, undefined, false, id));
  }
}

/** The issue as a list cached it, if one does. */
export function shownCopy(id: string): Issue | undefined {
  for (const key of store.keys(["issues:"])) {
    const found = pagesOf(key)?.items.find((i) => i.id === id);
    if (found) return found;
  }
  return undefined;
}

function place(loaded: IssuePages, issue: Issue | undefined, belongs: boolean, id = issue?.id): IssuePages {
  const items = loaded.items.filter((i) => i.id !== id);
  let nextOffset = loaded.nextOffset;
  const was = items.length < loaded.items.length;
  if (was && nextOffset !== null) nextOffset--;
  if (belongs && issue) {
    const order = comparator(loaded.query.sort ?? "-updated");
    let at = items.findIndex((other) => order(issue, other) < 0);
    if (at === -1) at = items.length;
    // Past the last loaded issue of a list with more pages, it belongs to a page not loaded yet.
    if (at < items.length || nextOffset === null) {
      items.splice(at, 0, issue);
      if (nextOffset !== null) nextOffset++;
    }
  }
  return { ...loaded, items, nextOffset };
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Whether `issue` passes the filters of `query`; `undefined` when that cannot be told without the server. */
export function matches(query: IssueQuery, issue: Issue): boolean | undefined {
  // Archived issues are listed only when the list asks for them (the contract's `archived`).
  const archived = query.archived ?? "false";
  if (archived !== "any" && (issue.archivedAt !== null) !== (archived === "true")) return false;
  if (query.team && !same(query.team, issue.team.key) && query.team !== issue.team.id) return false;
  if (query.stateType?.length && !query.stateType.includes(issue.state.type)) return false;
  if (query.state && !same(query.state, issue.state.name)) return false;
  const { assignee, project, cycle, label } = query;
  if (assignee && assignee !== "me") {
    if (!issue.assignee || ![issue.assignee.id, issue.assignee.email].some((v) => same(v, assignee)))
      return false;
  }
  if (project && (!issue.project || ![issue.project.id, issue.project.name].some((v) => same(v, project))))
    return false;
  if (typeof cycle === "number" && issue.cycle?.number !== cycle) return false;
  if (label?.length && !label.every((l) => issue.labels.some((name) => same(name, l)))) return false;
  const undecided =
    assignee === "me" ||
    cycle === "current" ||
    Boolean(query.q) ||
    Boolean(query.special?.length) ||
    Boolean(
      query.createdAfter ||
        query.createdBefore ||
        query.updatedAfter ||
        query.completedAfter ||
        query.completedBefore,
    );
  return undecided ? undefined : true;
}

type SortValue = string | number | null;

function stateRank(issue: Issue): number {
  const teams = store.get("teams")?.data as Schemas["Team"][] | undefined;
  const states = teams?.find((t) => t.id === issue.team.id)?.states ?? [];
  const position = states.findIndex((s) => s.id === issue.state.id);
  return STATE_TYPES.indexOf(issue.state.type) * 1000 + Math.max(0, position);
}

const SORT_VALUES: Record<string, (issue: Issue) => SortValue> = {
  // Urgent (1) first; 0, "no priority", counts as missing.
  priority: (i) => (i.priority === 0 ? null : i.priority),
  due: (i) => i.dueDate,
  created: (i) => i.createdAt,
  updated: (i) => i.updatedAt,
  title: (i) => i.title.toLowerCase(),
  estimate: (i) => i.estimate,
  state: stateRank,
  assignee: (i) => i.assignee?.name.toLowerCase() ?? null,
};

const numberOf = (identifier: string) => Number(identifier.slice(identifier.lastIndexOf("-") + 1));

/**
 * The order of the contract's `listIssues` sort keys: missing values last ascending, ties by team and
 * then issue number, and `-` reversing the whole order, ties included.
 */
export function comparator(sort: NonNullable<IssueQuery["sort"]>): (a: Issue, b: Issue) => number {
  const descending = sort.startsWith("-");
  const value = SORT_VALUES[sort.replace(/^-/, "")] ?? SORT_VALUES.updated!;
  return (a, b) => {
    const va = value(a);
    const vb = value(b);
    let order = 0;
    if (va === null || vb === null) order = va === vb ? 0 : va === null ? 1 : -1;
    else order = va < vb ? -1 : va > vb ? 1 : 0;
    if (order === 0) order = a.team.key.localeCompare(b.team.key);
    if (order === 0) order = numberOf(a.identifier) - numberOf(b.identifier);
    return descending ? -order : order;
  };
}
