import { LIST_FILTER_NAMES, LIST_OPERATIONS, QUERY_RULES } from "./generated/rules.js";
import type { QueryOf } from "./operation-types.js";

/** The kinds of paged list, which are also the kinds of saved view: `issues`, `projects`, `initiatives`. */
export type ListKind = keyof typeof LIST_FILTER_NAMES;

/** The list operation of a kind: `listIssues` for `issues`. */
export type ListOperation<K extends ListKind> = (typeof LIST_OPERATIONS)[K];

/** The name of one list filter of a kind, e.g. `stateType` for `issues`. */
export type ListFilterName<K extends ListKind> = (typeof LIST_FILTER_NAMES)[K][number];

/** The filters of a kind's list query, typed by the contract: `ListFilters<"issues">["special"]`. */
export type ListFilters<K extends ListKind> = Pick<
  QueryOf<ListOperation<K>>,
  ListFilterName<K> & keyof QueryOf<ListOperation<K>>
>;

/**
 * The filter parameters of each paged list, generated from the contract: its query less `workspace`,
 * `sort`, `limit`, `offset` and `cursor`. A saved view of that kind stores exactly these keys in `filters` (the
 * contract's `createView`), so this is the one list a client needs to read or write a view, a URL or flags.
 *
 * @example
 * LIST_FILTERS.issues.includes("stateType"); // true
 */
export const LIST_FILTERS: { readonly [K in ListKind]: readonly ListFilterName<K>[] } = LIST_FILTER_NAMES;

interface ParamRule {
  type?: string;
  enum?: readonly (string | number)[];
  minimum?: number;
  maximum?: number;
  items?: ParamRule;
  anyOf?: readonly ParamRule[];
}

function ruleOf(kind: ListKind, name: string): ParamRule {
  return (QUERY_RULES[LIST_OPERATIONS[kind]] as Record<string, ParamRule>)[name] ?? {};
}

function allowed(rule: ParamRule | undefined, value: string): boolean {
  return !rule?.enum || rule.enum.includes(value);
}

// One scalar as its rule takes it: a whole number where the rule (or one of its variants) is an integer
// within its bounds (a cycle number, a priority `1`), else text from its enum; anything else undefined.
function scalar(rule: ParamRule | undefined, text: string): string | number | undefined {
  if (text === "") return undefined;
  const variants = rule?.anyOf ?? [rule ?? {}];
  const whole = variants.find((v) => v.type === "integer");
  if (whole && /^\d+$/.test(text)) {
    const n = Number(text);
    const inBounds = (whole.minimum ?? 0) <= n && n <= (whole.maximum ?? Number.MAX_SAFE_INTEGER);
    if (inBounds && (!whole.enum || whole.enum.includes(n))) return n;
  }
  const word = variants.find((v) => v.type === "string" || v.type === undefined);
  if (word && allowed(word, text)) return text;
  return undefined;
}

// One value as the contract shapes its parameter: a comma list (an array), a number, a cycle selector
// (a number or `current`), or text. Values outside an enum and empty ones are dropped.
function shape(rule: ParamRule, value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  if (rule.type === "array") {
    const items = (Array.isArray(value) ? value : String(value).split(","))
      .map((v) => scalar(rule.items, String(v).trim()))
      .filter((v) => v !== undefined);
    return items.length ? items : undefined;
  }
  return scalar(rule, String(value).trim());
}

/**
 * Reads a kind's list filters from loosely typed values (a URL's query, a saved view's `filters`, a
 * command line's flags), shaped as the contract's list query takes them: comma lists become arrays
 * (values outside the parameter's enum dropped), a cycle its number or `current`, anything else text.
 * Keys that are not filters of the kind (`sort`, `limit`, unknown ones) are left out.
 *
 * @example
 * readListFilters("issues", new URLSearchParams("stateType=started,nope&cycle=3&sort=due"));
 * // { stateType: ["started"], cycle: 3 }
 */
export function readListFilters<K extends ListKind>(
  kind: K,
  source: URLSearchParams | Readonly<Record<string, unknown>>,
): ListFilters<K> {
  const get = (name: string): unknown =>
    source instanceof URLSearchParams ? (source.get(name) ?? undefined) : source[name];
  const filters: Record<string, unknown> = {};
  for (const name of LIST_FILTERS[kind]) {
    const value = shape(ruleOf(kind, name), get(name));
    if (value !== undefined) filters[name] = value;
  }
  return filters as ListFilters<K>;
}

const RELATIVE_DAY = /^(?:today|([+-])(\d{1,4})d)$/;

/**
 * The date a relative date bound names (the contract's relative form of `dueAfter`, `dueBefore` and the
 * time windows: `today`, `+14d`, `-7d`), counted from `now`'s UTC date as the server counts it when it
 * lists; a date (`2026-12-31`) is itself, anything else `undefined`. For showing a saved view's bounds:
 * the filters themselves stay relative, so the view keeps meaning "the next 14 days".
 *
 * @example
 * resolveListDate("+14d", new Date("2026-12-02T10:00:00Z")); // "2026-12-16"
 */
export function resolveListDate(value: unknown, now: Date = new Date()): string | undefined {
  if (typeof value !== "string") return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const m = RELATIVE_DAY.exec(value);
  if (!m) return undefined;
  const days = m[1] ? Number(m[2]) * (m[1] === "-" ? -1 : 1) : 0;
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days))
    .toISOString()
    .slice(0, 10);
}

/**
 * Writes a kind's list filters as query text, arrays as comma lists (the contract's `style: form,
 * explode: false`), in the contract's order; empty values and keys that are not filters are left out.
 *
 * @example
 * writeListFilters("issues", { special: ["overdue", "blocked"], team: "ENG" }).toString();
 * // "team=ENG&special=overdue%2Cblocked"
 */
export function writeListFilters<K extends ListKind>(
  kind: K,
  filters: Readonly<Record<string, unknown>>,
): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of LIST_FILTERS[kind]) {
    const value = filters[name];
    if (value === undefined || value === null || value === "") continue;
    if (Array.isArray(value)) {
      if (value.length) params.set(name, value.join(","));
    } else params.set(name, String(value));
  }
  return params;
}
