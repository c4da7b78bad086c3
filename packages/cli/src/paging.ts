import { type Deps, UsageError } from "./command.js";
import { progress } from "./output.js";

/** The page size the contract allows at most (`limit` maximum 200). */
export const PAGE_MAX = 200;

/** `--limit N` or `--limit all`: how many items to fetch; `--all` is the same as `--limit all`. */
export function parseLimit(limit: string | undefined, all: boolean | undefined, fallback = 50): number {
  if (all || limit === "all") return Number.POSITIVE_INFINITY;
  if (limit === undefined) return fallback;
  if (!/^[1-9]\d*$/.test(limit))
    throw new UsageError(`invalid value "${limit}" for --limit; expected a positive number or "all"`);
  return Number(limit);
}

/**
 * Fetches pages of a paged list until `limit` items or the last page, asking each page for no more than
 * it needs and following each page's `nextCursor` (so a list others write to meanwhile lists no item twice
 * and skips none that stays put, as offsets would); shows progress on a terminal when it takes more than
 * one page. A server that answers no `nextCursor` is followed by `nextOffset`.
 */
export async function collectPages<T>(
  deps: Deps,
  limit: number,
  fetchPage: (page: {
    limit: number;
    offset?: number;
    cursor?: string;
  }) => Promise<{ items: T[]; nextOffset: number | null; nextCursor?: string | null }>,
  noun: string,
): Promise<{ items: T[]; more: boolean }> {
  const items: T[] = [];
  let next: { cursor: string } | { offset: number } | Record<string, never> | null = {};
  const bar = progress(deps);
  try {
    while (next !== null && items.length < limit) {
      const page = await fetchPage({ limit: Math.min(PAGE_MAX, limit - items.length), ...next });
      items.push(...page.items);
      next = page.nextCursor
        ? { cursor: page.nextCursor }
        : page.nextCursor === undefined && page.nextOffset !== null
          ? { offset: page.nextOffset }
          : null;
      if (next !== null && items.length < limit) bar.update(`Fetched ${items.length} ${noun}…`);
    }
  } finally {
    bar.done();
  }
  return { items, more: next !== null };
}
