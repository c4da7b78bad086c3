import { LIST_FILTERS, type ListKind, readListFilters } from "@tracker/sdk";
import { CommandError, type Deps, UsageError } from "../../command.js";

/**
 * `--filter key=value` pairs as a view's filters object, each value shaped as the kind's list query takes
 * it (the SDK's `readListFilters`, from the contract): comma lists become arrays (`priority=urgent,high`,
 * `stateType=started`), whole numbers numbers (`estimateMin=2`, `cycle=3`). A key or value the contract does
 * not have is sent as given, so the server's refusal names it.
 */
export function parseFilters(pairs: string[] | undefined, kind: string): Record<string, unknown> | undefined {
  if (!pairs?.length) return undefined;
  const known = kind in LIST_FILTERS;
  const filters: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0)
      throw new UsageError(`invalid --filter "${pair}"; expected key=value, e.g. stateType=started`);
    const key = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    const shaped: Record<string, unknown> = known ? readListFilters(kind as ListKind, { [key]: value }) : {};
    filters[key] = key in shaped ? shaped[key] : value;
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
