import { createServer, type Server } from "node:net";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { createTracker } from "@tracker/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, textOf } from "./test/connect.js";
import { useWorkspace } from "./test/workspace.js";
import { TOOLSET_NAMES, TOOLSETS } from "./toolsets.js";

// How the tools behave where agents get hurt elsewhere: paging, compact answers, retried writes, silent
// servers, partial failures, and what a deployment chooses to offer. Against a real server.
const ws = useWorkspace();
let client: Client;

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
  client = await connectClient(ws.sdk, { toolsets: TOOLSET_NAMES });
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

const call = async (name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args });
const data = <T>(result: unknown) => (result as { structuredContent: T }).structuredContent;

describe("compact answers and paging", () => {
  it("answers 50 issues in under 4 KB, one line each, and pages with an opaque cursor", async () => {
    const first = await call("search_issues", { team: "WEB", sort: "created", limit: 50 });
    const text = textOf(first);
    const bytes = Buffer.byteLength(text);
    console.log(`search_issues: 50 issues in ${bytes} bytes of text (${Math.ceil(bytes / 4)} tokens)`);
    expect(bytes).toBeLessThan(4096);
    const lines = text.split("\n");
    expect(lines[0]).toBe(
      "WEB-1 [Backlog] P1 @bob due 2031-03-14 Checkout button unresponsive on slow networks",
    );
    expect(lines.filter((l) => /^WEB-\d+ /.test(l))).toHaveLength(50);
    const page = data<{ issues: unknown[]; cursor: string; hasMore: boolean }>(first);
    expect(page.issues).toHaveLength(50);
    expect(page.hasMore).toBe(true);
    expect(lines.at(-1)).toBe(`(50 issues shown; more with cursor "${page.cursor}")`);

    const second = await call("search_issues", {
      team: "WEB",
      sort: "created",
      limit: 50,
      cursor: page.cursor,
    });
    expect(data<{ issues: { identifier: string }[]; hasMore: boolean; cursor: null }>(second)).toMatchObject({
      hasMore: false,
      cursor: null,
    });
    expect(textOf(second).split("\n")[0]).toMatch(/^WEB-51 /);

    const mixed = await call("search_issues", { team: "ENG", cursor: page.cursor });
    expect(mixed.isError).toBe(true);
    expect(textOf(mixed)).toMatch(/belongs to a search with other filters/);
  });

  it("filters by time windows, and names a malformed bound", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const created = await call("search_issues", { team: "WEB", createdAfter: today, limit: 1 });
    expect(data<{ hasMore: boolean }>(created).hasMore).toBe(true);
    expect(textOf(await call("search_issues", { team: "WEB", createdBefore: today }))).toBe(
      "No issues match.",
    );
    const done = await call("search_issues", { completedAfter: "2020-01-01T00:00:00Z" });
    expect(textOf(done).split("\n")[0]).toMatch(/^ENG-8 \[Done\]/);
    const bad = await call("search_issues", { updatedAfter: "last tuesday" });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^invalid_request: .*\n.*updatedAfter/);
  });

  it("runs a saved view by name, under the filters given with it", async () => {
    const overdue = await call("search_issues", { view: "my overdue", sort: "due" });
    expect(
      textOf(overdue)
        .split("\n")
        .map((l) => l.split(" ")[0]),
    ).toEqual(["ENG-1", "ENG-2", "people:", "(2"]);
    const missing = await call("search_issues", { view: "Nope" });
    expect(textOf(missing)).toBe('No saved issue view named "Nope". Your issue views: "My overdue".');
  });
});

describe("writes that never act twice", () => {
  it("answers a create re-sent with the same idempotencyKey with the first issue", async () => {
    const args = { team: "ENG", title: "Flaky upload test", idempotencyKey: "agent-run-7:file-bug" };
    const first = data<{ issue: { identifier: string } }>(await call("create_issue", args));
    const again = data<{ issue: { identifier: string } }>(await call("create_issue", args));
    expect(again.issue.identifier).toBe(first.issue.identifier);
    const found = await ws.sdk.issues.list({ team: "ENG", q: "Flaky upload test" });
    expect(found.items).toHaveLength(1);

    const reused = await call("create_issue", { ...args, title: "Something else" });
    expect(reused.isError).toBe(true);
    expect(textOf(reused)).toMatch(/idempotency_key_reused[\s\S]*Use a new key/);
  });

  it("files several issues in one call, in order, once per key, and none when one is refused", async () => {
    const issues = [
      { team: "ENG", title: "Plan step one", priority: "high" },
      { team: "ENG", title: "Plan step two", labels: ["plan"] },
    ];
    const first = await call("create_issues", { issues, idempotencyKey: "agent-run-8:plan" });
    const rows = data<{ issues: { identifier: string; title: string; priority: number }[] }>(first).issues;
    expect(rows.map((r) => r.title)).toEqual(["Plan step one", "Plan step two"]);
    expect(rows[0]!.priority).toBe(2);
    expect(textOf(first)).toMatch(/^Created 2:\n/);
    const again = await call("create_issues", { issues, idempotencyKey: "agent-run-8:plan" });
    expect(data<{ issues: { identifier: string }[] }>(again).issues.map((r) => r.identifier)).toEqual(
      rows.map((r) => r.identifier),
    );
    const before = (await ws.sdk.issues.list({ team: "ENG", limit: 200 })).items.length;
    const refused = await call("create_issues", {
      issues: [
        { team: "ENG", title: "Fine" },
        { team: "ENG", title: "Bad", state: "Nowhere" },
      ],
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("Issue 2 of 2");
    expect((await ws.sdk.issues.list({ team: "ENG", limit: 200 })).items.length).toBe(before);
  });

  it("finishes a half-done create when it is re-sent with its key, without a second issue", async () => {
    const args = {
      team: "ENG",
      title: "Cache stampede",
      blocks: ["ENG-999"],
      idempotencyKey: "agent-run-7:stampede",
    };
    const half = await call("create_issue", args);
    expect(half.isError).toBe(true);
    expect(textOf(half)).toMatch(/^Created (ENG-\d+) .*Cache stampede, but relating failed: not_found/);
    expect(textOf(half)).toContain('call again with idempotencyKey "agent-run-7:stampede"');
    const created = data<{ issue: { identifier: string } }>(half).issue.identifier;
    const fixed = await call("create_issue", { ...args, blocks: ["ENG-4"] });
    // The body changed (blocks is not sent with the issue), so the create replays and the relation is made.
    expect(textOf(fixed)).toBe(
      `Created ${textOf(half).split("\n")[0]!.slice(8).split(", but")[0]}\nblocks ENG-4`,
    );
    expect((await ws.sdk.issues.relations(created)).map((r) => `${r.type} ${r.issue.identifier}`)).toEqual([
      "blocks ENG-4",
    ]);
  });

  it("relates, recognises an existing relation, removes it, and says what exists when there is none", async () => {
    expect(
      textOf(await call("relate_issues", { identifier: "ENG-5", type: "blocked_by", issue: "ENG-4" })),
    ).toBe("Related: ENG-5 blocked_by ENG-4.");
    expect(
      textOf(await call("relate_issues", { identifier: "ENG-5", type: "blocked_by", issue: "ENG-4" })),
    ).toBe("Already related: ENG-5 blocked_by ENG-4.");
    expect((await ws.sdk.issues.relations("ENG-4")).map((r) => r.type)).toContain("blocks");
    expect(
      textOf(
        await call("relate_issues", {
          identifier: "ENG-5",
          type: "blocked_by",
          issue: "ENG-4",
          remove: true,
        }),
      ),
    ).toBe("Removed: ENG-5 blocked_by ENG-4.");
    const none = await call("relate_issues", {
      identifier: "ENG-5",
      type: "related",
      issue: "ENG-4",
      remove: true,
    });
    expect(textOf(none)).toBe('ENG-5 has no relation "related ENG-4". Its relations: none.');
    const link = { identifier: "ENG-5", url: "https://example.com/spec", linkTitle: "Spec" };
    expect(textOf(await call("relate_issues", link))).toBe("Linked ENG-5 to https://example.com/spec.");
    expect(textOf(await call("relate_issues", link))).toBe(
      "ENG-5 already links to https://example.com/spec.",
    );
  });

  it("updates what it can of several issues and says which failed and why", async () => {
    const result = await call("update_issues", { identifiers: ["ENG-7", "ENG-999"], assignee: "none" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^Updated:\nENG-7 \[Backlog\] P2 @- Search ignores accents\nFailed:\nENG-999: not_found/,
    );
    expect((await ws.sdk.issues.get("ENG-7")).assignee).toBeNull();
  });
});

describe("a silent server", () => {
  let silent: Server;
  let url: string;
  beforeAll(async () => {
    // Accepts connections and never answers: a hung proxy or a stalled server.
    silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
  });
  afterAll(() => {
    silent.close();
  });

  it("answers isError within the time limit instead of hanging, with the key to retry a write safely", async () => {
    const tracker = createTracker({
      baseUrl: url,
      apiKey: "trk_x",
      workspace: "",
      maxRetries: 0,
      timeoutMs: 300,
    });
    const agent = await connectClient(tracker, {}, 300);
    const started = Date.now();
    const read = await agent.callTool({ name: "search_issues", arguments: { team: "ENG" } });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(read.isError).toBe(true);
    expect(textOf(read)).toMatch(/did not answer in time/);
    const write = await agent.callTool({
      name: "create_issue",
      arguments: { team: "ENG", title: "Lost answer" },
    });
    expect(write.isError).toBe(true);
    expect(textOf(write)).toMatch(
      /may or may not have happened\. Call again with idempotencyKey "mcp-[0-9a-f-]{36}"/,
    );
  });
});

describe("what a deployment offers", () => {
  it("offers only reads in read-only mode", async () => {
    const readOnly = await connectClient(ws.sdk, { toolsets: TOOLSET_NAMES, readOnly: true });
    const names = (await readOnly.listTools()).tools.map((t) => t.name);
    expect(names).toContain("search_issues");
    expect(names).not.toContain("create_issue");
    expect(names.every((n) => /^(search|get|list|whoami)/.test(n))).toBe(true);
  });

  it("offers single tools on their own or on top of toolsets", async () => {
    const only = await connectClient(ws.sdk, { tools: ["get_issue", "list_cycles"] });
    expect((await only.listTools()).tools.map((t) => t.name)).toEqual(["get_issue", "list_cycles"]);
    const more = await connectClient(ws.sdk, { toolsets: ["docs"], tools: ["whoami"] });
    expect((await more.listTools()).tools.map((t) => t.name)).toEqual([
      "whoami",
      "search_documents",
      "get_document",
      "save_document",
    ]);
  });

  it("starts dynamic with two tools and turns a toolset on, telling the client the list changed", async () => {
    const dynamic = await connectClient(ws.sdk, { dynamic: true });
    let changed = 0;
    dynamic.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed++;
    });
    expect((await dynamic.listTools()).tools.map((t) => t.name)).toEqual(["list_toolsets", "enable_toolset"]);
    expect(textOf(await dynamic.callTool({ name: "list_toolsets", arguments: {} }))).toMatch(
      /^\[off\] issues: Search, read, create/,
    );
    const enabled = await dynamic.callTool({ name: "enable_toolset", arguments: { toolset: "planning" } });
    expect(textOf(enabled)).toBe(
      `Enabled planning: ${TOOLSETS.planning.tools.map((t) => t.name).join(", ")}.`,
    );
    await expect.poll(() => changed).toBe(1);
    const names = (await dynamic.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(["list_toolsets", "enable_toolset", ...TOOLSETS.planning.tools.map((t) => t.name)]);
    expect(textOf(await dynamic.callTool({ name: "list_projects", arguments: {} }))).toMatch(
      /^Launch \[started\]/,
    );
  });
});
