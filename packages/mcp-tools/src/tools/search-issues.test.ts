import { beforeAll, describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { ws, call } = useTools();

const TITLES = [
  "Checkout button unresponsive on slow networks",
  "Password reset email lands in spam",
  "Image uploads over 10 MB time out",
  "Search results flicker while typing",
  "Timezone shown wrong in activity feed",
  "Keyboard shortcuts clash with browser defaults",
  "Pagination resets after closing a modal",
  "Avatar cache never invalidates",
  "Invoice PDF cuts off long addresses",
  "Two-factor prompt appears twice",
  "Sidebar collapses on every reload",
];

beforeAll(async () => {
  await ws.sdk.teams.create({ key: "WEB", name: "Web" });
  for (let i = 0; i < 55; i++) {
    await ws.sdk.issues.create({
      team: "WEB",
      title: `${TITLES[i % TITLES.length]}${i >= TITLES.length ? ` (${Math.floor(i / TITLES.length) + 1})` : ""}`,
      priority: ((i % 4) + 1) as 1 | 2 | 3 | 4,
      assignee: i % 3 === 0 ? ws.bob.email : i % 3 === 1 ? "me" : null,
      ...(i % 5 === 0 ? { dueDate: "2031-03-14" } : {}),
    });
  }
});

describe("search_issues", () => {
  it("answers one line per issue, and says how to recover from a state the team lacks", async () => {
    const good = await call("search_issues", { team: "ENG", special: ["overdue"], sort: "due" });
    expect(good.text).toMatch(
      /^ENG-1 \[Backlog\] P1 @ada due \d{4}-\d\d-\d\d Login fails on Safari\nENG-2 \[Backlog\] P- @- /,
    );
    const bad = await call("search_issues", { team: "ENG", state: "Doing" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toBe(
      'invalid_request: No state "Doing" in this team. States: Backlog, Todo, In Progress, In Review, Done, Canceled.',
    );
  });

  it("answers 50 issues in under 4 KB, one line each, and pages with an opaque cursor", async () => {
    const first = await call<{ issues: unknown[]; cursor: string; hasMore: boolean }>("search_issues", {
      team: "WEB",
      sort: "created",
      limit: 50,
    });
    const bytes = Buffer.byteLength(first.text);
    console.log(`search_issues: 50 issues in ${bytes} bytes of text (${Math.ceil(bytes / 4)} tokens)`);
    expect(bytes).toBeLessThan(4096);
    const lines = first.text.split("\n");
    expect(lines[0]).toBe(
      "WEB-1 [Backlog] P1 @bob due 2031-03-14 Checkout button unresponsive on slow networks",
    );
    expect(lines.filter((l) => /^WEB-\d+ /.test(l))).toHaveLength(50);
    expect(first.data.issues).toHaveLength(50);
    expect(first.data.hasMore).toBe(true);
    expect(lines.at(-1)).toBe(`(50 issues shown; more with cursor "${first.data.cursor}")`);

    const second = await call("search_issues", {
      team: "WEB",
      sort: "created",
      limit: 50,
      cursor: first.data.cursor,
    });
    expect(second.data).toMatchObject({ hasMore: false, cursor: null });
    expect(second.text.split("\n")[0]).toMatch(/^WEB-51 /);

    const mixed = await call("search_issues", { team: "ENG", cursor: first.data.cursor });
    expect(mixed.isError).toBe(true);
    expect(mixed.text).toMatch(/belongs to a search with other filters/);
  });

  it("filters by time windows, and names a malformed bound", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const created = await call<{ hasMore: boolean }>("search_issues", {
      team: "WEB",
      createdAfter: today,
      limit: 1,
    });
    expect(created.data.hasMore).toBe(true);
    expect((await call("search_issues", { team: "WEB", createdBefore: today })).text).toBe(
      "No issues match.",
    );
    const done = await call("search_issues", { completedAfter: "2020-01-01T00:00:00Z" });
    expect(done.text.split("\n")[0]).toMatch(/^ENG-8 \[Done\]/);
    // updatedBefore beside updatedAfter, and relative days resolved by the server.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const all = await call<{ issues: unknown[] }>("search_issues", { team: "ENG", limit: 200 });
    const before = await call<{ issues: unknown[] }>("search_issues", {
      team: "ENG",
      updatedBefore: tomorrow,
      limit: 200,
    });
    expect(before.data.issues.length).toBe(all.data.issues.length);
    expect((await call("search_issues", { team: "ENG", updatedBefore: "2020-01-01" })).text).toBe(
      "No issues match.",
    );
    expect((await call("search_issues", { team: "ENG", updatedBefore: "-7d" })).text).toBe(
      "No issues match.",
    );
    const recent = await call<{ issues: unknown[] }>("search_issues", {
      team: "ENG",
      updatedAfter: "-1d",
      limit: 200,
    });
    expect(recent.data.issues.length).toBe(all.data.issues.length);
    const bad = await call("search_issues", { updatedAfter: "last tuesday" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/^invalid_request: .*\n.*updatedAfter/);
  });

  it("runs a saved view by name, under the filters given with it", async () => {
    const overdue = await call("search_issues", { view: "my overdue", sort: "due" });
    expect(overdue.text.split("\n").map((l) => l.split(" ")[0])).toEqual(["ENG-1", "ENG-2", "people:", "(2"]);
    const missing = await call("search_issues", { view: "Nope" });
    expect(missing.text).toBe('No saved issue view named "Nope". Your issue views: "My overdue".');
  });

  it("shows each blocked issue's open blockers on its line, and what a blocking one blocks", async () => {
    await ws.sdk.issues.addRelation("ENG-6", { issue: "ENG-2", type: "blocks" });
    await ws.sdk.issues.addRelation("ENG-8", { issue: "ENG-2", type: "blocks" }); // ENG-8 is done
    await ws.sdk.issues.addRelation("ENG-7", { issue: "ENG-2", type: "blocks" });
    const blocked = await call<{ issues: { identifier: string; blockedBy: string[] }[] }>("search_issues", {
      team: "ENG",
      special: ["blocked"],
    });
    expect(blocked.text.split("\n")[0]).toMatch(
      /^ENG-2 \[Backlog\] P- @- due \S+ Board is slow with 500 cards · blocked by ENG-6, ENG-7$/,
    );
    expect(blocked.data.issues[0]!.blockedBy.sort()).toEqual(["ENG-6", "ENG-7"]);
    const blocking = await call("search_issues", { team: "ENG", special: ["blocking"], sort: "created" });
    expect(blocking.text.split("\n").slice(0, 2)).toEqual([
      expect.stringMatching(/^ENG-6 .* Rate limit docs · blocks ENG-2$/),
      expect.stringMatching(/^ENG-7 .* Search ignores accents · blocks ENG-2$/),
    ]);
  });
  it("filters by priority, estimate, due window, creator, parent, no assignee and no label", async () => {
    await ws.sdk.teams.create({ key: "FLT", name: "Filters" });
    const sdk = ws.sdk;
    const epic = await sdk.issues.create({ team: "FLT", title: "Epic parent", priority: 3 });
    await sdk.issues.create({
      team: "FLT",
      title: "Urgent bug",
      priority: 1,
      estimate: 5,
      dueDate: "2026-12-10",
      labels: ["bug"],
      assignee: "me",
      parent: epic.identifier,
    });
    await sdk.issues.create({
      team: "FLT",
      title: "High chore",
      priority: 2,
      estimate: 1,
      dueDate: "2027-01-15",
    });
    await sdk.teams.addMember("FLT", (await sdk.users.list()).find((u) => u.email === ws.bob.email)!.id);
    await ws
      .as(ws.bob.token)
      .issues.create({ team: "FLT", title: "Bobs idea", labels: ["ui"], assignee: "me" });
    const titles = async (args: Record<string, unknown>) => {
      const { text, isError } = await call("search_issues", { team: "FLT", sort: "created", ...args });
      expect(isError, text).toBe(false);
      return text === "No issues match."
        ? []
        : text
            .split("\n")
            .filter((l) => l.startsWith("FLT-"))
            .map((l) => /^FLT-\d+ .* (\S+ \S+)$/.exec(l)?.[1]);
    };
    expect(await titles({ priority: ["urgent", "high"] })).toEqual(["Urgent bug", "High chore"]);
    expect(await titles({ priority: ["none"] })).toEqual(["Bobs idea"]);
    expect(await titles({ priority: [1, "high"] })).toEqual(["Urgent bug", "High chore"]);
    expect(await titles({ priority: [0] })).toEqual(["Bobs idea"]);
    expect(await titles({ estimateMin: 2 })).toEqual(["Urgent bug"]);
    expect(await titles({ estimateMax: 4 })).toEqual(["High chore"]);
    expect(await titles({ dueAfter: "2026-12-01", dueBefore: "2027-01-01" })).toEqual(["Urgent bug"]);
    expect(await titles({ creator: ws.bob.email })).toEqual(["Bobs idea"]);
    expect(await titles({ parent: epic.identifier })).toEqual(["Urgent bug"]);
    expect(await titles({ parent: "any" })).toEqual(["Urgent bug"]);
    expect(await titles({ parent: "none" })).toEqual(["Epic parent", "High chore", "Bobs idea"]);
    expect(await titles({ assignee: "none" })).toEqual(["Epic parent", "High chore"]);
    expect(await titles({ labels: ["none"] })).toEqual(["Epic parent", "High chore"]);
    expect(await titles({ estimateMin: 6 })).toEqual([]);
    const badPriority = await call("search_issues", { priority: ["asap"] });
    expect(badPriority.isError).toBe(true);
    expect(badPriority.text).toMatch(/priority/);
    const noParent = await call("search_issues", { parent: "FLT-999" });
    expect(noParent.isError).toBe(true);
    expect(noParent.text).toMatch(/^not_found: /);
  });
});
