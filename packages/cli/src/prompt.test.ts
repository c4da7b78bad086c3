import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTracker } from "@tracker/sdk";
import { describe, expect, it } from "vitest";
import { useSession } from "./test/binary.js";
import { terminal as term } from "./test/terminal.js";

// Prompts, driven the way a person drives them: the built binary in a real pseudo-terminal.
const s = useSession();

const terminal = (args: string[], env: Record<string, string | undefined> = {}) => term(s, args, env);

describe("prompts in a terminal (real pseudo-terminal, real binary)", () => {
  it("asks for the team from a picker and for the title, then creates the issue", async () => {
    await createTracker({ baseUrl: s.server.url, apiKey: s.token }).teams.create({
      name: "Design",
      key: "DES",
    });
    const run = terminal(["issues", "create", "--priority", "high"]);
    await run.answer("Team", "\x1b[B\r"); // Design is first by name: arrow down to Engineering
    await run.answer("Title", "Typed at a terminal\r");
    expect(await run.exited).toBe(0);
    expect(run.plain()).toContain("Created ENG-1 in Engineering [Backlog]");
    const issue = await createTracker({ baseUrl: s.server.url, apiKey: s.token }).issues.get("ENG-1");
    expect(issue).toMatchObject({ title: "Typed at a terminal", priority: 2 });
  });

  it("offers the team's states when an edit names no change", async () => {
    const run = terminal(["issues", "edit", "ENG-1"]);
    await run.answer("New state", "\x1b[B\x1b[B\r"); // Backlog, Todo, In Progress
    expect(await run.exited).toBe(0);
    expect(run.plain()).toContain("Updated ENG-1 [In Progress]");
  });

  it("prints a table with colour on a terminal, and never asks with --no-input", async () => {
    const list = terminal(["issues", "list"]);
    expect(await list.exited).toBe(0);
    expect(list.plain()).toMatch(/ID\s+STATE\s+PRIORITY\s+TITLE/);
    expect(list.raw()).toContain("\x1b[36mENG-1"); // identifiers in cyan
    const run = terminal(["issues", "create", "--no-input"]);
    expect(await run.exited).toBe(2);
    expect(run.plain()).toContain("--team is required");
  });

  it("shows progress of bulk work on the terminal's stderr, and clears it", async () => {
    await createTracker({ baseUrl: s.server.url, apiKey: s.token }).issues.create({
      team: "ENG",
      title: "Second",
    });
    const run = terminal(["issues", "edit", "ENG-1", "ENG-2", "--estimate", "2"]);
    expect(await run.exited).toBe(0);
    expect(run.raw()).toContain("Updated 1/2: ENG-1…");
    expect(run.raw()).toContain("\r\x1b[K");
    expect(run.plain()).toContain("Updated ENG-2 [");
  });

  it("counts the pages of --limit all on the terminal's stderr, clears the line, then prints every row", {
    timeout: 180_000,
  }, async () => {
    const tracker = createTracker({ baseUrl: s.server.url, apiKey: s.token });
    const before = (await tracker.issues.list({ team: "ENG", limit: 200 })).items.length;
    // More than one page (the contract's limit is 200 at most), created ten at a time.
    const wanted = 201 - before;
    for (let i = 0; i < wanted; i += 10) {
      await Promise.all(
        Array.from({ length: Math.min(10, wanted - i) }, (_, k) =>
          tracker.issues.create({ team: "ENG", title: `Paged ${i + k}` }),
        ),
      );
    }
    const run = terminal(["issues", "list", "--limit", "all", "--sort", "-created"], { COLUMNS: "100" });
    expect(await run.exited).toBe(0);
    expect(run.raw()).toContain("Fetched 200 issues…\r\x1b[K"); // then the line is cleared for the table
    const rows = run
      .plain()
      .split("\n")
      .filter((line) => /^\s*ENG-\d+\s/.test(line));
    expect(rows).toHaveLength(201);
    const piped = await s.run(["issues", "list", "--limit", "all"]);
    expect(piped.stderr).toBe("");
    expect(piped.stdout.trim().split("\n")).toHaveLength(201);
  });

  it("logs in by asking for the URL and the key, which is not echoed", async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), "tracker-cli-login-"));
    try {
      const run = terminal(["auth", "login"], {
        XDG_CONFIG_HOME: home,
        TRACKER_URL: undefined,
        TRACKER_API_KEY: undefined,
      });
      await run.answer("Server URL", `\x15${s.server.url}\r`); // Ctrl-U clears the suggested default
      await run.answer("API key", `${s.token}\r`);
      expect(await run.exited).toBe(0);
      expect(run.plain()).not.toContain(s.token);
      expect(run.plain()).toContain(`Logged in to ${s.server.url} as Ada Lovelace`);
      const stored = JSON.parse(readFileSync(path.join(home, "tracker", "config.json"), "utf8"));
      expect(stored).toMatchObject({
        default: s.server.url,
        servers: { [s.server.url]: { apiKey: s.token } },
      });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("exits 130 when a question is answered with Ctrl-C", async () => {
    const run = terminal(["issues", "create"]);
    await run.answer("Team", "\x03");
    expect(await run.exited).toBe(130);
  });
});
