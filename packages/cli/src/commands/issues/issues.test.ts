import { createTracker } from "@tracker/sdk";
import { describe, expect, it } from "vitest";
import { json, rows, useSession } from "../../test/binary.js";
import { terminal } from "../../test/terminal.js";

// `tracker issues …` and `tracker comments …`: the built binary against a real server.
const s = useSession();
const tty = { TRACKER_FORCE_TTY: "1", NO_COLOR: "1", COLUMNS: "120" };

describe("tracker issues (real server, real binary)", () => {
  it("creates issues from flags and from standard input, and lists them as TSV, a table, JSON and jq", async () => {
    const first = await s.run([
      "issues",
      "create",
      "--team",
      "ENG",
      "--title",
      "Login fails on Safari",
      "--priority",
      "high",
      "--label",
      "bug,web",
      "--assignee",
      "me",
    ]);
    expect(first).toMatchObject({ code: 0, stdout: "ENG-1\n", stderr: "" });
    const second = await s.run(
      ["issues", "create", "-t", "ENG", "--title", "Flaky test", "--description-file", "-"],
      {
        input: "Fails one run in ten.\n",
      },
    );
    expect(second.stdout).toBe("ENG-2\n");

    const tsv = await s.run(["issues", "list", "--sort", "title"]);
    expect(tsv.code).toBe(0);
    expect(rows(tsv).map((r) => r.slice(0, 6))).toEqual([
      ["ENG-2", "Backlog", "", "Flaky test", "", ""],
      ["ENG-1", "Backlog", "High", "Login fails on Safari", s.user.email, "bug,web"],
    ]);

    const table = await s.run(["issues", "list", "--sort", "title"], { env: tty });
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID\s+STATE\s+PRIORITY\s+TITLE\s+ASSIGNEE\s+LABELS\s+UPDATED$/);
    expect(lines[2]).toMatch(
      /^ENG-1\s+Backlog\s+High\s+Login fails on Safari\s+Ada Lovelace\s+bug, web\s+just now$/,
    );
    expect(lines[1]!.indexOf("Flaky")).toBe(lines[0]!.indexOf("TITLE"));
    expect(table.stdout).not.toContain("\t");

    const picked = await s.run(["issues", "list", "--sort", "title", "--json", "identifier,title"]);
    expect(json(picked)).toEqual([
      { identifier: "ENG-2", title: "Flaky test" },
      { identifier: "ENG-1", title: "Login fails on Safari" },
    ]);
    const jq = await s.run(["issues", "list", "--jq", ".[] | select(.priority == 2) | .identifier"]);
    expect(jq.stdout).toBe("ENG-1\n");
    const view = await s.run(["issues", "view", "ENG-2", "--json", "description", "--jq", ".description"]);
    expect(view.stdout).toBe("Fails one run in ten.\n");
  });

  it("filters like the app and runs a saved view", async () => {
    await s.run(["views", "create", "--name", "Bugs", "--filter", "label=bug"]);
    expect((await s.run(["issues", "list", "--view", "bugs", "--jq", ".[].identifier"])).stdout).toBe(
      "ENG-1\n",
    );
    expect((await s.run(["issues", "list", "--assignee", "me", "--jq", ".[].identifier"])).stdout).toBe(
      "ENG-1\n",
    );
    expect((await s.run(["issues", "list", "--limit", "all", "--jq", "length"])).stdout).toBe("2\n");
    // Time windows, from flags and from a saved view: ENG-1 and ENG-2 were created today.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const created = (args: string[]) => s.run(["issues", "list", ...args, "--jq", "length"]);
    expect((await created(["--created-after", "2000-01-01"])).stdout).toBe("2\n");
    expect((await created(["--created-after", tomorrow])).stdout).toBe("0\n");
    expect((await created(["--created-before", tomorrow, "--completed-after", "2000-01-01"])).stdout).toBe(
      "0\n",
    );
    await s.run(["views", "create", "--name", "Future", "--filter", `createdAfter=${tomorrow}`]);
    expect((await s.run(["issues", "list", "--view", "Future", "--jq", "length"])).stdout).toBe("0\n");
    const badDate = await s.run(["issues", "list", "--updated-after", "last week"]);
    expect(badDate.code).toBe(1);
    expect(badDate.stderr).toContain("invalid_request");
    const unknown = await s.run(["issues", "list", "--view", "Nope"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no saved view "Nope"; your issue views:\n  Bugs\n  Future');
  });

  it("views an issue as fields when piped and as a page on a terminal", async () => {
    const piped = await s.run(["issues", "view", "ENG-1"]);
    expect(piped.stdout).toContain("identifier:\tENG-1\n");
    expect(piped.stdout).toContain("priority:\tHigh\n");
    const page = await s.run(["issues", "view", "ENG-1"], { env: tty });
    expect(page.stdout.split("\n")[0]).toBe("Login fails on Safari ENG-1");
    expect(page.stdout).toContain("Labels: bug, web");
  });

  it("edits several issues at once, and reports the ones that fail", async () => {
    const edited = await s.run([
      "issues",
      "edit",
      "ENG-1",
      "ENG-2",
      "--state",
      "In Progress",
      "--add-label",
      "triaged",
      "--estimate",
      "3",
    ]);
    expect(edited).toMatchObject({ code: 0, stdout: "ENG-1\nENG-2\n" });
    const partial = await s.run(["issues", "edit", "ENG-2", "ENG-404", "--priority", "low"]);
    expect(partial.code).toBe(1);
    expect(partial.stdout).toBe("ENG-2\n");
    expect(partial.stderr).toContain("ENG-404: not_found:");
    expect(partial.stderr).toContain("1 of 2 issues were not changed: ENG-404");
    const state = await s.run(["issues", "edit", "ENG-1", "--state", "Doing"]);
    expect(state.code).toBe(1);
    expect(state.stderr).toContain(
      'No state "Doing" in this team. States: Backlog, Todo, In Progress, In Review, Done, Canceled',
    );
    const nothing = await s.run(["issues", "edit", "ENG-1"]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain("nothing to change");
  });

  it("closes to the team's completed state and reopens to its first unstarted one", async () => {
    const closed = await s.run(["issues", "close", "ENG-1", "--comment", "Fixed in #42", "--json", "state"]);
    expect(json(closed)).toMatchObject({ state: { name: "Done", type: "completed" } });
    const canceled = await s.run(["issues", "close", "ENG-2", "--canceled"]);
    expect(canceled.stdout).toBe("ENG-2\n");
    expect((await s.run(["issues", "view", "ENG-2", "--jq", ".state.name"])).stdout).toBe("Canceled\n");
    await s.run(["issues", "reopen", "ENG-1", "ENG-2"]);
    expect((await s.run(["issues", "list", "--jq", "[.[].state.name] | unique | .[]"])).stdout).toBe(
      "Todo\n",
    );
  });

  it("relates and unrelates two issues, from either side", async () => {
    const related = await s.run(["issues", "relate", "ENG-2", "ENG-1", "--type", "blocked-by"]);
    expect(related.stderr).toBe("ENG-2 blocked by ENG-1\n");
    expect(
      (await s.run(["issues", "view", "ENG-1", "--jq", '.relations[] | "\\(.type) \\(.issue.identifier)"']))
        .stdout,
    ).toBe("blocks ENG-2\n");
    expect((await s.run(["issues", "list", "--special", "blocked", "--jq", ".[].identifier"])).stdout).toBe(
      "ENG-2\n",
    );
    const removed = await s.run(["issues", "unrelate", "ENG-1", "ENG-2"]);
    expect(removed.stderr).toBe("Removed: ENG-1 blocks ENG-2\n");
    const again = await s.run(["issues", "unrelate", "ENG-1", "ENG-2"]);
    expect(again).toMatchObject({ code: 1, stderr: "ENG-1 has no relation to ENG-2\n" });
    const bad = await s.run(["issues", "relate", "ENG-1", "ENG-2", "--type", "parent"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      'invalid value "parent" for --type; expected one of: related, blocks, blocked-by',
    );
  });

  it("links a URL and moves issues to another team", async () => {
    const link = await s.run([
      "issues",
      "link",
      "ENG-1",
      "https://example.com/spec",
      "--title",
      "Spec",
      "--json",
      "url,title",
    ]);
    expect(json(link)).toEqual({ url: "https://example.com/spec", title: "Spec" });
    await s.run(["teams", "create", "--name", "Operations", "--key", "OPS"]);
    const moved = await s.run(["issues", "move", "ENG-2", "--team", "OPS"]);
    expect(moved).toMatchObject({ code: 0, stdout: "ENG-2\tOPS-1\t\n" });
    expect((await s.run(["issues", "view", "ENG-2", "--jq", ".identifier"])).stdout).toBe("OPS-1\n");
  });

  it("imports issues from JSON Lines on stdin, once however often it is run", async () => {
    const lines =
      '{"title":"Imported one","priority":3}\n{"title":"Imported two","labels":["import"]}\n{"title":""}\n';
    const first = await s.run(["issues", "import", "--team", "ENG"], { input: lines });
    expect(first.code).toBe(1);
    expect(first.stdout).toMatch(/^ENG-\d+\nENG-\d+\n$/);
    expect(first.stderr).toContain("issue 3: invalid_request:");
    expect(first.stderr).toContain("1 of 3 issues were not imported (3)");
    const again = await s.run(["issues", "import", "--team", "ENG"], { input: lines });
    expect(again.stdout).toBe(first.stdout);
    expect((await s.run(["issues", "list", "--label", "import", "--jq", "length"])).stdout).toBe("1\n");
    // More than one batch of 100: every line in order, and once however often it is run.
    const many = Array.from({ length: 150 }, (_, i) =>
      JSON.stringify({ title: `Bulk ${i}`, labels: ["bulk"] }),
    );
    const bulk = await s.run(["issues", "import", "--team", "ENG"], { input: `${many.join("\n")}\n` });
    expect(bulk.code).toBe(0);
    const numbers = bulk.stdout
      .trim()
      .split("\n")
      .map((id) => Number(id.replace("ENG-", "")));
    expect(numbers).toEqual(Array.from({ length: 150 }, (_, i) => numbers[0]! + i));
    const bulkAgain = await s.run(["issues", "import", "--team", "ENG"], { input: `${many.join("\n")}\n` });
    expect(bulkAgain.stdout).toBe(bulk.stdout);
    expect(
      (await s.run(["issues", "list", "--label", "bulk", "--limit", "all", "--jq", "length"])).stdout,
    ).toBe("150\n");
    const bad = await s.run(["issues", "import"], { input: "{not json\n" });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("line 1 is not JSON");
  });

  it("exits 1 with the server's code and detail, and 2 on usage errors without calling it", async () => {
    const missing = await s.run(["issues", "view", "ENG-999"]);
    expect(missing).toMatchObject({ code: 1, stdout: "" });
    expect(missing.stderr).toBe('not_found: No issue "ENG-999" in this workspace.\n');
    const noTeam = await s.run(["issues", "create", "--title", "No team"]);
    expect(noTeam.code).toBe(2);
    expect(noTeam.stderr).toBe("--team is required\nRun 'tracker issues create --help' for usage.\n");
    const badLimit = await s.run(["issues", "list", "--limit", "lots"]);
    expect(badLimit.stderr).toContain(
      'invalid value "lots" for --limit; expected a positive number or "all"',
    );
    const badSpecial = await s.run(["issues", "list", "--special", "overdue,late"]);
    expect(badSpecial.code).toBe(2);
    expect(badSpecial.stderr).toContain('invalid value "late" for --special');
    const badJq = await s.run(["issues", "list", "--jq", ".[] |"]);
    expect(badJq.code).toBe(2);
    expect(badJq.stderr).toContain("compile error");
    const badField = await s.run(["issues", "list", "--json", "identifier,colour"]);
    expect(badField.code).toBe(2);
    expect(badField.stderr).toContain('unknown JSON field "colour"; available: id, identifier, title');
  });
});

describe("tracker issues list", () => {
  it("lists open issues unless --state says closed or all, as gh does, in a terminal", async () => {
    const sdk = createTracker({ baseUrl: s.server.url, apiKey: s.token, workspace: "" });
    await sdk.teams.create({ key: "OPN", name: "Open work" });
    await sdk.issues.create({ team: "OPN", title: "Still open" });
    await sdk.issues.create({ team: "OPN", title: "Shipped it", state: "Done" });
    await sdk.issues.create({ team: "OPN", title: "Dropped it", state: "Canceled" });
    const titles = async (args: string[]) => {
      const run = terminal(s, ["issues", "list", "--team", "OPN", ...args], { COLUMNS: "120" });
      expect(await run.exited).toBe(0);
      return ["Still open", "Shipped it", "Dropped it"].filter((t) => run.plain().includes(t));
    };
    expect(await titles([])).toEqual(["Still open"]);
    expect(await titles(["--state", "closed"])).toEqual(["Shipped it", "Dropped it"]);
    expect(await titles(["--state", "all"])).toEqual(["Still open", "Shipped it", "Dropped it"]);
    expect(await titles(["--state", "Done"])).toEqual(["Shipped it"]);
    expect(await titles(["--state-type", "canceled"])).toEqual(["Dropped it"]);
    // A completion window asks for finished issues by itself.
    expect(await titles(["--completed-after", "2020-01-01"])).toEqual(["Shipped it", "Dropped it"]);
  });
});

describe("tracker issues list: issue 37's filters", () => {
  it("filters by priority, estimate, due window, creator, parent, no assignee and no label, in a terminal", async () => {
    const admin = createTracker({ baseUrl: s.server.url, apiKey: s.token, workspace: "" });
    const other = await s.server.addMember(s.token, "member", "sam@filters.test");
    const sam = createTracker({ baseUrl: s.server.url, apiKey: other.token, workspace: "" });
    await admin.teams.create({ key: "FLT", name: "Filters" });
    await admin.teams.addMember("FLT", other.userId);
    const epic = await admin.issues.create({ team: "FLT", title: "Epic parent", priority: 3 });
    await admin.issues.create({
      team: "FLT",
      title: "Urgent bug",
      priority: 1,
      estimate: 5,
      dueDate: "2026-12-10",
      labels: ["bug"],
      assignee: "me",
      parent: epic.identifier,
    });
    await admin.issues.create({
      team: "FLT",
      title: "High chore",
      priority: 2,
      estimate: 1,
      dueDate: "2027-01-15",
    });
    await sam.issues.create({ team: "FLT", title: "Sams idea", labels: ["idea"], assignee: "me" });
    const all = ["Epic parent", "Urgent bug", "High chore", "Sams idea"];
    const titles = async (args: string[]) => {
      const run = terminal(s, ["issues", "list", "--team", "FLT", ...args], { COLUMNS: "120" });
      expect(await run.exited).toBe(0);
      return all.filter((t) => run.plain().includes(t));
    };
    expect(await titles(["--priority", "urgent,high"])).toEqual(["Urgent bug", "High chore"]);
    expect(await titles(["--priority", "none"])).toEqual(["Sams idea"]);
    // By the numbers issues carry, as `--json priority` prints them.
    expect(await titles(["--priority", "1,2"])).toEqual(["Urgent bug", "High chore"]);
    expect(await titles(["--priority", "0"])).toEqual(["Sams idea"]);
    expect(await titles(["--estimate-min", "2"])).toEqual(["Urgent bug"]);
    expect(await titles(["--estimate-max", "4"])).toEqual(["High chore"]);
    expect(await titles(["--due-after", "2026-12-01", "--due-before", "2027-01-01"])).toEqual(["Urgent bug"]);
    expect(await titles(["--due-after", "2027-01-01"])).toEqual(["High chore"]);
    expect(await titles(["--creator", "sam@filters.test"])).toEqual(["Sams idea"]);
    expect(await titles(["--parent", epic.identifier])).toEqual(["Urgent bug"]);
    expect(await titles(["--parent", "any"])).toEqual(["Urgent bug"]);
    expect(await titles(["--parent", "none"])).toEqual(["Epic parent", "High chore", "Sams idea"]);
    expect(await titles(["--assignee", "none"])).toEqual(["Epic parent", "High chore"]);
    expect(await titles(["--label", "none"])).toEqual(["Epic parent", "High chore"]);
    expect(await titles(["--label", "none", "--assignee", "none", "--priority", "medium"])).toEqual([
      "Epic parent",
    ]);

    // Wrong values are usage errors (exit 2) before any call, or the server's refusal (exit 1).
    const badPriority = terminal(s, ["issues", "list", "--priority", "urgent,asap"]);
    expect(await badPriority.exited).toBe(2);
    expect(badPriority.plain()).toContain("asap");
    const badEstimate = terminal(s, ["issues", "list", "--estimate-min", "lots"]);
    expect(await badEstimate.exited).toBe(2);
    expect(badEstimate.plain()).toContain('invalid value "lots" for --estimate-min');
    const noParent = terminal(s, ["issues", "list", "--parent", "FLT-999"]);
    expect(await noParent.exited).toBe(1);
    expect(noParent.plain()).toContain("not_found");
  });
});

describe("tracker issues create --editor, comments add --editor", () => {
  it("writes the description and a comment in $EDITOR on a terminal, and refuses --editor when piped", async () => {
    const editor = `sh -c 'printf "Written in the editor\\n" > "$1"' sh`;
    const run = terminal(s, ["issues", "create", "--team", "ENG", "--title", "Edited", "--editor"], {
      EDITOR: editor,
    });
    expect(await run.exited).toBe(0);
    const identifier = /Created (ENG-\d+)/.exec(run.plain())?.[1];
    const sdk = createTracker({ baseUrl: s.server.url, apiKey: s.token, workspace: "" });
    expect((await sdk.issues.get(identifier!)).description).toBe("Written in the editor");
    expect(await terminal(s, ["comments", "add", identifier!, "-e"], { EDITOR: editor }).exited).toBe(0);
    expect((await sdk.issues.get(identifier!)).comments.map((c) => c.body)).toEqual([
      "Written in the editor",
    ]);
    const piped = await s.run(["issues", "create", "--team", "ENG", "--title", "x", "--editor"], {
      env: { EDITOR: editor },
    });
    expect(piped).toMatchObject({ code: 2 });
    expect(piped.stderr).toContain("--editor needs a terminal");
  });
});
