import { CommandError, type Deps, UsageError } from "../../command.js";

// Which filter keys are comma lists, per the list queries of the contract (`listIssues`, `listProjects`,
// `listInitiatives`): a saved view stores those as JSON arrays.
const LIST_KEYS = new Set(["stateType", "label", "special", "status", "lead", "health"]);

/**
 * `--filter key=value` pairs as a view's filters object: comma-list keys become arrays, a cycle number a
 * number; `team` is a list for project views and one key for issue views.
 */
export function parseFilters(pairs: string[] | undefined, kind: string): Record<string, unknown> | undefined {
  if (!pairs?.length) return undefined;
  const filters: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0)
      throw new UsageError(`invalid --filter "${pair}"; expected key=value, e.g. stateType=started`);
    const key = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    const isList = LIST_KEYS.has(key) || (key === "team" && kind === "projects");
    filters[key] = isList
      ? value
          .split(",")
          .map((v) => v.trim())
          .filter(Boolean)
      : key === "cycle" && /^\d+$/.test(value)
        ? Number(value)
        : value;
  }
  return filters;
}

/** Shows a filters object the way --filter takes it. */
export function formatFilters(filters: Record<string, unknown>): string {
  return Object.entries(filters)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(",") : String(v)}`)
    .join(" ");
}

/** One of the caller's saved views, by id or name. */
export async function findView(deps: Deps, ref: string) {
  const views = await deps.tracker.views.list(deps.call);
  const view =
    views.find((v) => v.id === ref) ?? views.find((v) => v.name.toLowerCase() === ref.toLowerCase());
  if (!view) throw new CommandError(`no saved view "${ref}"; see 'tracker views list'`);
  return view;
}
