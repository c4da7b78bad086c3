import { describe, expect, it } from "vitest";
import { LIST_FILTERS, readListFilters, resolveListDate, SCHEMA_RULES, writeListFilters } from "./index.js";

describe("the list-filter vocabulary", () => {
  it("names each paged list's filters as the contract's list query does", () => {
    expect(LIST_FILTERS.issues).toEqual([
      "team",
      "state",
      "stateType",
      "assignee",
      "creator",
      "project",
      "parent",
      "priority",
      "estimateMin",
      "estimateMax",
      "dueAfter",
      "dueBefore",
      "cycle",
      "label",
      "q",
      "special",
      "createdAfter",
      "createdBefore",
      "updatedAfter",
      "updatedBefore",
      "completedAfter",
      "completedBefore",
      "archived",
    ]);
    expect(LIST_FILTERS.projects).toEqual(["initiative", "status", "lead", "team", "health", "special"]);
    expect(LIST_FILTERS.initiatives).toEqual(["status", "lead", "health", "special"]);
  });

  it("reads issue 37's filters in their shapes: priority names as a list, estimate bounds as numbers", () => {
    const search = new URLSearchParams(
      "priority=urgent,asap,high&estimateMin=2&dueBefore=2026-12-31&parent=none",
    );
    expect(readListFilters("issues", search)).toEqual({
      priority: ["urgent", "high"],
      estimateMin: 2,
      dueBefore: "2026-12-31",
      parent: "none",
    });
  });

  it("reads filters from a URL or a saved view in the contract's shapes, dropping what is not one", () => {
    const search = new URLSearchParams(
      "stateType=started,nope&cycle=3&special=overdue&label=bug,ui&q=%20login%20&sort=due&limit=5&x=1",
    );
    expect(readListFilters("issues", search)).toEqual({
      stateType: ["started"],
      cycle: 3,
      special: ["overdue"],
      label: ["bug", "ui"],
      q: "login",
    });
    expect(readListFilters("issues", { cycle: "current", label: [], createdAfter: "2026-11-01" })).toEqual({
      cycle: "current",
      createdAfter: "2026-11-01",
    });
    expect(readListFilters("projects", { status: "started", health: ["off_track", "sunny"] })).toEqual({
      status: ["started"],
      health: ["off_track"],
    });
  });

  it("keeps relative date bounds as given, and resolves one against a UTC date for showing it", () => {
    const source = new URLSearchParams(
      "dueBefore=%2B14d&dueAfter=today&updatedAfter=-7d&updatedBefore=2026-12-01",
    );
    expect(readListFilters("issues", source)).toEqual({
      dueAfter: "today",
      dueBefore: "+14d",
      updatedAfter: "-7d",
      updatedBefore: "2026-12-01",
    });
    expect(readListFilters("issues", { dueBefore: "+14d" })).toEqual({ dueBefore: "+14d" });
    const now = new Date("2026-12-31T23:30:00-02:00"); // 2027-01-01 01:30 UTC
    expect(resolveListDate("today", now)).toBe("2027-01-01");
    expect(resolveListDate("+14d", now)).toBe("2027-01-15");
    expect(resolveListDate("-7d", now)).toBe("2026-12-25");
    expect(resolveListDate("2026-05-01", now)).toBe("2026-05-01");
    expect(resolveListDate("+2w", now)).toBeUndefined();
  });

  it("writes filters as comma lists in the contract's order, and round-trips", () => {
    const filters = { special: ["overdue", "blocked"], team: "ENG", cycle: 2, sort: "due" };
    const params = writeListFilters("issues", filters);
    expect(params.toString()).toBe("team=ENG&cycle=2&special=overdue%2Cblocked");
    expect(readListFilters("issues", params)).toEqual({
      team: "ENG",
      cycle: 2,
      special: ["overdue", "blocked"],
    });
  });

  it("carries the contract's bounds, not copies of them", () => {
    expect(SCHEMA_RULES.IssueCreate.title).toEqual({ type: "string", minLength: 1, maxLength: 255 });
    expect(SCHEMA_RULES.IssueCreate.estimate).toEqual({ nullable: true, type: "integer", minimum: 0 });
    expect(SCHEMA_RULES.LabelCreate.color.pattern).toBe("^#[0-9a-fA-F]{6}$");
  });
});
