import { createHash } from "node:crypto";
import { z } from "zod";
import { ToolRefusal } from "./errors.js";

/**
 * Paging for agents: an opaque `cursor` (where the next page starts, bound to the filters it was made for)
 * and `hasMore`, so an agent asks for the next page instead of fetching page one again, and a cursor passed
 * with other filters is refused rather than silently skipping results. For the lists the API pages (issues,
 * projects, initiatives) it carries the API's own `nextCursor`, so a walk lists nothing twice and skips
 * nothing that stays put while others write (the contract's "Pagination"); for lists the API answers whole
 * (`slicePage`), the next offset into that answer.
 */
export const cursorInput = z
  .string()
  .min(1)
  .max(2400)
  .optional()
  .describe("From the previous answer, for the next page.");

export const pageOutput = {
  cursor: z.string().nullable(),
  hasMore: z.boolean(),
};

function fingerprint(filters: unknown): string {
  return createHash("sha256").update(JSON.stringify(filters)).digest("base64url").slice(0, 8);
}

export function encodeCursor(offset: number, filters: unknown): string {
  return Buffer.from(`${offset}.${fingerprint(filters)}`).toString("base64url");
}

/** A cursor for the API's `nextCursor` of a list with these filters. */
export function encodeListCursor(apiCursor: string, filters: unknown): string {
  return Buffer.from(`c.${fingerprint(filters)}.${apiCursor}`).toString("base64url");
}

const refuseOtherFilters = () =>
  new ToolRefusal(
    "That cursor belongs to a search with other filters: repeat the filters it came with, or drop `cursor` to start over.",
  );

/**
 * Where a page of an API-paged list starts: the API's `cursor` a tool cursor carries (an offset for one
 * made before cursors, none without one); a cursor of other filters or a garbled one is refused.
 */
export function decodeListCursor(
  cursor: string | undefined,
  filters: unknown,
): { cursor: string } | { offset: number } | Record<string, never> {
  if (cursor === undefined) return {};
  const match = /^c\.([\w-]{8})\.([\w-]+)$/.exec(Buffer.from(cursor, "base64url").toString());
  if (!match) return { offset: decodeCursor(cursor, filters) };
  if (match[1] !== fingerprint(filters)) throw refuseOtherFilters();
  return { cursor: match[2]! };
}

/** The page fields of an API-paged list's answer: a cursor of its `nextCursor` (else `nextOffset`), if any. */
export function listPageOf(
  page: { nextOffset: number | null; nextCursor?: string | null },
  filters: unknown,
): { cursor: string | null; hasMore: boolean } {
  if (page.nextCursor) return { cursor: encodeListCursor(page.nextCursor, filters), hasMore: true };
  return pageOf(page.nextCursor === undefined ? page.nextOffset : null, filters);
}

/** The offset a cursor stands for (0 without one); a cursor of other filters or a garbled one is refused. */
export function decodeCursor(cursor: string | undefined, filters: unknown): number {
  if (cursor === undefined) return 0;
  const match = /^(\d{1,10})\.([\w-]{8})$/.exec(Buffer.from(cursor, "base64url").toString());
  if (!match)
    throw new ToolRefusal(
      "That cursor is not one this tool gave out: drop `cursor` to start from the first page.",
    );
  if (match[2] !== fingerprint(filters)) throw refuseOtherFilters();
  return Number(match[1]);
}

/** The page fields of an answer: the cursor of `nextOffset`, if any. */
export function pageOf(
  nextOffset: number | null,
  filters: unknown,
): { cursor: string | null; hasMore: boolean } {
  return nextOffset === null
    ? { cursor: null, hasMore: false }
    : { cursor: encodeCursor(nextOffset, filters), hasMore: true };
}

/** Pages a list the API answers whole, so long lists stay as cheap to read as paged ones. */
export function slicePage<T>(
  items: T[],
  cursor: string | undefined,
  limit: number,
  filters: unknown,
): { items: T[]; cursor: string | null; hasMore: boolean } {
  const offset = decodeCursor(cursor, filters);
  const page = items.slice(offset, offset + limit);
  const next = offset + limit < items.length ? offset + limit : null;
  return { items: page, ...pageOf(next, filters) };
}

/** The last line of a list answer: how many were shown and how to get more. */
export function pageFooter(shown: number, noun: string, page: { cursor: string | null }): string {
  const plural = shown === 1 ? noun : `${noun}s`;
  return page.cursor === null
    ? `(${shown} ${plural}, no more)`
    : `(${shown} ${plural} shown; more with cursor "${page.cursor}")`;
}
