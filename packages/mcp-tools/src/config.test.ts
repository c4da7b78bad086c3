import { describe, expect, it } from "vitest";
import { readConfig, UsageError } from "./config.js";
import { decodeCursor, encodeCursor } from "./cursor.js";
import { handlesFor, issueLines } from "./format.js";
import { DEFAULT_TOOLSETS, selectTools, TOOLSET_NAMES } from "./toolsets.js";

describe("flags and environment", () => {
  it("takes the defaults when nothing is set", () => {
    const { config } = readConfig([], {});
    expect(config).toEqual({
      toolsets: undefined,
      tools: undefined,
      excludeTools: undefined,
      readOnly: false,
      dynamic: false,
      timeoutMs: 30_000,
      http: false,
      port: 3333,
      host: "127.0.0.1",
      allowedOrigins: [],
    });
    expect(selectTools(config).map((t) => t.name)).toContain("search_issues");
    expect(DEFAULT_TOOLSETS).toEqual(["issues", "context"]);
  });

  it("reads --lockdown alone as mark, =drop as drop, and TRACKER_LOCKDOWN", () => {
    expect(readConfig(["--lockdown"], {}).config.lockdown).toBe("mark");
    expect(readConfig(["--lockdown=drop"], {}).config.lockdown).toBe("drop");
    expect(readConfig([], { TRACKER_LOCKDOWN: "1" }).config.lockdown).toBe("mark");
    expect(readConfig([], {}).config.lockdown).toBeUndefined();
    expect(() => readConfig(["--lockdown=sometimes"], {})).toThrow(/--lockdown: Unknown lockdown/);
  });

  it("reads the environment, and lets a flag win over it", () => {
    const env = {
      TRACKER_TOOLSETS: "planning,docs",
      TRACKER_TOOLS: "whoami",
      TRACKER_EXCLUDE_TOOLS: "save_document",
      TRACKER_READ_ONLY: "1",
      TRACKER_DYNAMIC: "true",
      TRACKER_TIMEOUT_MS: "5000",
      TRACKER_ALLOWED_ORIGINS: "https://a.example, https://b.example/",
    };
    expect(readConfig([], env).config).toMatchObject({
      toolsets: ["planning", "docs"],
      tools: ["whoami"],
      excludeTools: ["save_document"],
      readOnly: true,
      dynamic: true,
      timeoutMs: 5000,
      allowedOrigins: ["https://a.example", "https://b.example"],
    });
    const flagged = readConfig(
      [
        "--toolsets",
        "all",
        "--exclude-tools",
        "manage_labels,move_issues",
        "--http",
        "--port",
        "8080",
        "--host",
        "0.0.0.0",
        "--timeout",
        "1000",
      ],
      env,
    );
    expect(flagged.config).toMatchObject({
      toolsets: TOOLSET_NAMES,
      excludeTools: ["manage_labels", "move_issues"],
      http: true,
      port: 8080,
      host: "0.0.0.0",
      timeoutMs: 1000,
    });
  });

  it("stops at an unknown toolset, tool or flag, naming the choices", () => {
    expect(() => readConfig(["--toolsets", "issues,labels"], {})).toThrow(
      /Unknown toolset labels; choose from: all, default, issues, context, planning, docs, people, inbox, agents, admin/,
    );
    expect(() => readConfig([], { TRACKER_TOOLS: "get_issues" })).toThrow(
      /Unknown tool get_issues; choose from: search_issues/,
    );
    expect(() => readConfig(["--exclude-tools", "drop_tables"], {})).toThrow(/Unknown tool drop_tables/);
    expect(() => readConfig(["--verbose"], {})).toThrow(UsageError);
    expect(() => readConfig(["--timeout", "soon"], {})).toThrow(/--timeout must be a whole number/);
  });
});

describe("cursors", () => {
  it("round-trip an offset for the same filters and refuse other filters or garbage", () => {
    const filters = { team: "ENG", special: ["overdue"] };
    expect(decodeCursor(encodeCursor(150, filters), filters)).toBe(150);
    expect(() => decodeCursor(encodeCursor(150, filters), { team: "OPS" })).toThrow(/other filters/);
    expect(() => decodeCursor("bm9wZQ", filters)).toThrow(/not one this tool gave out/);
  });
});

describe("issue lines", () => {
  it("names people by a short handle, whole emails where two share one, and maps them on a last line", () => {
    expect([...handlesFor(["ada@a.example", "ada@b.example", "bob@a.example", null])]).toEqual([
      ["ada@a.example", "ada@a.example"],
      ["ada@b.example", "ada@b.example"],
      ["bob@a.example", "bob"],
    ]);
    const row = { title: "Login fails", state: "Todo", priority: 0, dueDate: null };
    expect(
      issueLines([
        { ...row, identifier: "ENG-1", assignee: "bob@a.example" },
        { ...row, identifier: "ENG-2", assignee: null },
      ]),
    ).toEqual([
      "ENG-1 [Todo] P- @bob Login fails",
      "ENG-2 [Todo] P- @- Login fails",
      "people: @bob=bob@a.example",
    ]);
  });
});
