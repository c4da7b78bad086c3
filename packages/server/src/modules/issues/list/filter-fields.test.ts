import type { operations } from "@tracker/sdk/schema";
import { beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, useTestServer } from "../../../test/harness.js";

/**
 * The list filters of issue 37 (`priority`, `estimateMin`/`estimateMax`, `dueAfter`/`dueBefore`,
 * `creator`, `parent`, `assignee=none`, `label=none`), through the API as a client sends them, and a
 * saved view that stores them.
 */

type ListQuery = NonNullable<operations["listIssues"]["parameters"]["query"]>;

const srv = useTestServer();
let admin: ApiClient;
let alice: ApiClient;
let aliceEmail = "";
let authHeader = "";
const ids: Record<string, string> = {};

async function create(api: ApiClient, title: string, extra: Record<string, unknown> = {}) {
  const res = await api.POST("/issues", { body: { team: "ENG", title, ...extra } as never });
  expect(res.response.status, JSON.stringify(res.error)).toBe(201);
  const issue = res.data!.issue;
  ids[title] = issue.identifier;
  return issue.identifier;
}

async function titles(query: Omit<ListQuery, "workspace">, api = admin): Promise<string[]> {
  const res = await api.GET("/issues", { params: { query: { ...query, limit: 200 } as ListQuery } });
  expect(res.response.status, JSON.stringify(res.error)).toBe(200);
  return res.data!.issues.map((i) => i.title).sort();
}

beforeAll(async () => {
  const boot = await srv.bootstrap({ name: "Carol", team: { key: "ENG", name: "Engineering" } });
  admin = srv.client(boot.apiKey.token);
  authHeader = `Bearer ${boot.apiKey.token}`;
  const member = await srv.addMember(boot.apiKey.token, "member", "alice@example.com");
  aliceEmail = member.email;
  alice = srv.client(member.token);
  await srv.query(
    "insert into team_members (id, team_id, user_id, created_at) select gen_random_uuid(), t.id, $1, now() from teams t where t.key = 'ENG' and t.workspace_id = $2 on conflict do nothing",
    [member.userId, boot.workspace.id],
  );
  const epic = await create(admin, "Epic", { priority: 0 });
  await create(admin, "Urgent bug", { priority: 1, labels: ["Bug"], estimate: 5, dueDate: "2026-12-10" });
  await create(admin, "Urgent chore", { priority: 1, estimate: 1, parent: epic });
  await create(admin, "High bug", { priority: 2, labels: ["Bug", "Frontend"], dueDate: "2026-12-31" });
  await create(alice, "Alice low", { priority: 4, estimate: 3, parent: epic, assignee: aliceEmail });
  await create(alice, "Alice none", { priority: 0, dueDate: "2027-01-15", assignee: "me" });
});

describe("issue list filters of issue 37", () => {
  it("priority takes one or several names, and none", async () => {
    expect(await titles({ priority: ["urgent"] })).toEqual(["Urgent bug", "Urgent chore"]);
    expect(await titles({ priority: ["urgent", "high"] })).toEqual([
      "High bug",
      "Urgent bug",
      "Urgent chore",
    ]);
    expect(await titles({ priority: ["none"] })).toEqual(["Alice none", "Epic"]);
    expect(await titles({ priority: ["none", "low"] })).toEqual(["Alice low", "Alice none", "Epic"]);
  });

  it("priority takes the numbers an issue carries as well as names, mixed in one list", async () => {
    expect(await titles({ priority: [1] })).toEqual(["Urgent bug", "Urgent chore"]);
    expect(await titles({ priority: [0] })).toEqual(["Alice none", "Epic"]);
    expect(await titles({ priority: [2, "urgent"] })).toEqual(["High bug", "Urgent bug", "Urgent chore"]);
    // As a script writes the URL: `?priority=1,4`.
    const res = await srv.fetch(
      new Request(`${srv.url}/api/v1/issues?priority=1,4`, {
        headers: { authorization: authHeader },
      }),
    );
    expect(res.status).toBe(200);
    const listed = ((await res.json()) as { issues: { title: string; priority: number }[] }).issues;
    expect(listed.map((i) => i.title).sort()).toEqual(["Alice low", "Urgent bug", "Urgent chore"]);
    expect(new Set(listed.map((i) => i.priority))).toEqual(new Set([1, 4]));
  });

  it("refuses an unknown priority with 400 naming the parameter and the valid values", async () => {
    for (const priority of [["asap"], [5], ["-1"]]) {
      const typed = await admin.GET("/issues", { params: { query: { priority } as never } });
      expect(typed.response.status).toBe(400);
      expect(typed.error?.code).toBe("invalid_request");
      expect(JSON.stringify(typed.error)).toContain("priority");
    }
    const res = await srv.fetch(
      new Request(`${srv.url}/api/v1/issues?priority=asap`, { headers: { authorization: authHeader } }),
    );
    const problem = (await res.json()) as { errors: { path: string; message: string }[] };
    expect(problem.errors.map((e) => e.path)).toContain("/query/priority/0");
    expect(JSON.stringify(problem)).toMatch(/urgent/);
  });

  it("estimate range is inclusive and leaves out issues without an estimate", async () => {
    expect(await titles({ estimateMin: 3 })).toEqual(["Alice low", "Urgent bug"]);
    expect(await titles({ estimateMax: 3 })).toEqual(["Alice low", "Urgent chore"]);
    expect(await titles({ estimateMin: 2, estimateMax: 4 })).toEqual(["Alice low"]);
    expect(await titles({ estimateMin: 6 })).toEqual([]);
  });

  it("due window: after inclusive, before exclusive; no due date through special", async () => {
    expect(await titles({ dueAfter: "2026-12-10", dueBefore: "2026-12-31" })).toEqual(["Urgent bug"]);
    expect(await titles({ dueBefore: "2027-01-01" })).toEqual(["High bug", "Urgent bug"]);
    expect(await titles({ dueAfter: "2027-01-01" })).toEqual(["Alice none"]);
    expect(await titles({ special: ["no_due_date"] })).toEqual(["Alice low", "Epic", "Urgent chore"]);
    const bad = await admin.GET("/issues", { params: { query: { dueBefore: "2026-13-01" } } });
    expect(bad.response.status).toBe(400);
  });

  it("due bounds take a day relative to today's UTC date: +14d lists what the computed date lists", async () => {
    const day = 86_400_000;
    const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
    const dateIn = (days: number) => new Date(today + days * day).toISOString().slice(0, 10);
    const relativeTo = (date: string) => {
      const days = Math.round((Date.parse(`${date}T00:00:00Z`) - today) / day);
      return days === 0 ? "today" : `${days > 0 ? "+" : "-"}${Math.abs(days)}d`;
    };
    // The fixed due dates of the seed, named relatively.
    expect(await titles({ dueBefore: relativeTo("2026-12-31") })).toEqual(["Urgent bug"]);
    expect(await titles({ dueAfter: relativeTo("2027-01-01") })).toEqual(["Alice none"]);
    expect(await titles({ dueAfter: relativeTo("2026-12-10"), dueBefore: relativeTo("2026-12-31") })).toEqual(
      ["Urgent bug"],
    );
    for (const [relative, days] of [
      ["+14d", 14],
      ["-7d", -7],
      ["today", 0],
      ["+400d", 400],
    ] as const) {
      expect(await titles({ dueBefore: relative })).toEqual(await titles({ dueBefore: dateIn(days) }));
      expect(await titles({ dueAfter: relative })).toEqual(await titles({ dueAfter: dateIn(days) }));
    }
    // Time windows too: the start of that UTC day.
    expect(await titles({ createdAfter: "-1d" })).toEqual(await titles({ createdAfter: dateIn(-1) }));
    expect(await titles({ createdBefore: "+1d" })).toEqual(await titles({ createdBefore: dateIn(1) }));
    for (const bad of ["+14", "14d", "+1w", "tomorrow", "+99999d"]) {
      const res = await admin.GET("/issues", { params: { query: { dueBefore: bad } } });
      expect([bad, res.response.status]).toEqual([bad, 400]);
    }
  });

  it("a saved view keeps a relative due bound as given, and means the next 14 days whenever it is read", async () => {
    const saved = await admin.POST("/views", {
      body: { name: "Due in two weeks", filters: { dueAfter: "today", dueBefore: "+14d" } } as never,
    });
    expect(saved.response.status, JSON.stringify(saved.error)).toBe(201);
    expect(saved.data!.view.filters).toEqual({ dueAfter: "today", dueBefore: "+14d" });
    const read = (await admin.GET("/views")).data!.views.find((v) => v.id === saved.data!.view.id)!;
    expect(read.filters).toEqual({ dueAfter: "today", dueBefore: "+14d" });
    const today = new Date().toISOString().slice(0, 10);
    const in14 = new Date(Date.parse(`${today}T00:00:00Z`) + 14 * 86_400_000).toISOString().slice(0, 10);
    expect(await titles(read.filters as ListQuery)).toEqual(
      await titles({ dueAfter: today, dueBefore: in14 }),
    );
    const refused = await admin.POST("/views", {
      body: { name: "Bad", filters: { dueBefore: "+2w" } } as never,
    });
    expect(refused.response.status).toBe(400);
  });

  it("creator by email, me, and 404 for nobody", async () => {
    expect(await titles({ creator: aliceEmail })).toEqual(["Alice low", "Alice none"]);
    expect(await titles({ creator: "me" }, alice)).toEqual(["Alice low", "Alice none"]);
    expect(await titles({ creator: "me" })).toEqual(["Epic", "High bug", "Urgent bug", "Urgent chore"]);
    const missing = await admin.GET("/issues", { params: { query: { creator: "nobody@example.com" } } });
    expect(missing.response.status).toBe(404);
  });

  it("parent: sub-issues of one, any, none; a missing parent is 404", async () => {
    expect(await titles({ parent: ids.Epic! })).toEqual(["Alice low", "Urgent chore"]);
    expect(await titles({ parent: ids.Epic!.toLowerCase() })).toEqual(["Alice low", "Urgent chore"]);
    expect(await titles({ parent: "any" })).toEqual(["Alice low", "Urgent chore"]);
    expect(await titles({ parent: "none" })).toEqual(["Alice none", "Epic", "High bug", "Urgent bug"]);
    expect((await admin.GET("/issues", { params: { query: { parent: "ENG-999" } } })).response.status).toBe(
      404,
    );
    expect((await admin.GET("/issues", { params: { query: { parent: "nonsense" } } })).response.status).toBe(
      400,
    );
  });

  it("assignee=none and label=none", async () => {
    expect(await titles({ assignee: "none" })).toEqual(["Epic", "High bug", "Urgent bug", "Urgent chore"]);
    expect(await titles({ label: ["none"] })).toEqual(["Alice low", "Alice none", "Epic", "Urgent chore"]);
    expect(await titles({ label: ["none"], priority: ["urgent"] })).toEqual(["Urgent chore"]);
  });

  it("a saved view stores them: Urgent bugs = priority urgent + label Bug", async () => {
    const saved = await admin.POST("/views", {
      body: { name: "Urgent bugs", filters: { priority: ["urgent"], label: ["Bug"] } } as never,
    });
    expect(saved.response.status, JSON.stringify(saved.error)).toBe(201);
    const view = saved.data!.view;
    expect(view.filters).toEqual({ priority: ["urgent"], label: ["Bug"] });
    expect(await titles(view.filters as ListQuery)).toEqual(["Urgent bug"]);

    const all = await admin.POST("/views", {
      body: {
        name: "Everything new",
        filters: {
          creator: "me",
          parent: "none",
          estimateMin: 1,
          estimateMax: 8,
          dueAfter: "2026-12-01",
          dueBefore: "2027-01-01",
          assignee: "none",
        },
      } as never,
    });
    expect(all.response.status, JSON.stringify(all.error)).toBe(201);
    expect(await titles(all.data!.view.filters as ListQuery)).toEqual(["Urgent bug"]);

    // Priorities by number, as issues carry them, are stored as given and mean the same.
    const byNumber = await admin.POST("/views", {
      body: { name: "Urgent bugs by number", filters: { priority: [1], label: ["Bug"] } } as never,
    });
    expect(byNumber.response.status, JSON.stringify(byNumber.error)).toBe(201);
    expect(byNumber.data!.view.filters).toEqual({ priority: [1], label: ["Bug"] });
    expect(await titles(byNumber.data!.view.filters as ListQuery)).toEqual(["Urgent bug"]);

    for (const filters of [
      { priority: ["asap"] },
      { priority: [7] },
      { estimateMin: -1 },
      { dueBefore: "soon" },
    ]) {
      const refused = await admin.POST("/views", { body: { name: "Bad", filters } as never });
      expect(refused.response.status).toBe(400);
    }
  });
});
