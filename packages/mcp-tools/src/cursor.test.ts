import { describe, expect, it } from "vitest";
import { decodeListCursor, encodeCursor, encodeListCursor, listPageOf } from "./cursor.js";

describe("tool cursors of the lists the API pages", () => {
  const filters = { team: "ENG", sort: "-updated" };

  it("carry the API's nextCursor, bound to the filters", () => {
    const page = listPageOf({ nextOffset: 50, nextCursor: "WyJpc3N1ZXMiXQ" }, filters);
    expect(page.hasMore).toBe(true);
    expect(decodeListCursor(page.cursor!, filters)).toEqual({ cursor: "WyJpc3N1ZXMiXQ" });
    expect(() => decodeListCursor(page.cursor!, { team: "OPS" })).toThrow(/other filters/);
    expect(() => decodeListCursor("bm9wZQ", filters)).toThrow(/not one this tool gave out/);
    expect(decodeListCursor(undefined, filters)).toEqual({});
  });

  it("stop on the last page, and read an offset cursor or a server without cursors", () => {
    expect(listPageOf({ nextOffset: null, nextCursor: null }, filters)).toEqual({
      cursor: null,
      hasMore: false,
    });
    // A page by cursor answers no offset; an older server answers no cursor.
    expect(listPageOf({ nextOffset: 50 }, filters).hasMore).toBe(true);
    expect(decodeListCursor(listPageOf({ nextOffset: 50 }, filters).cursor!, filters)).toEqual({
      offset: 50,
    });
    expect(decodeListCursor(encodeCursor(100, filters), filters)).toEqual({ offset: 100 });
    expect(encodeListCursor("abc", filters)).not.toContain("abc");
  });
});
