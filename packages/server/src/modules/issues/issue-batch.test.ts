import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test/harness.js";

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(() => srv.close());

async function workspace() {
  const { apiKey, workspace } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  const api = srv.client(apiKey.token);
  await api.POST("/teams", { body: { key: "OPS", name: "Operations" } });
  const count = async () =>
    Number(
      (
        await srv.query<{ n: string }>("select count(*) as n from issues where workspace_id = $1", [
          workspace.id,
        ])
      )[0]!.n,
    );
  return { api, token: apiKey.token, count };
}

describe("POST /issues/batch (real server)", () => {
  it("creates every issue in order, numbered consecutively per team, each as POST /issues would", async () => {
    const { api } = await workspace();
    await api.POST("/issues", { body: { team: "ENG", title: "Before" } });
    const res = await api.POST("/issues/batch", {
      body: {
        issues: [
          { team: "ENG", title: "One", priority: 1, labels: ["bug"] },
          { team: "OPS", title: "Two", state: "Todo" },
          { team: "ENG", title: "Three", estimate: 3 },
        ],
      },
    });
    expect(res.response.status).toBe(201);
    const issues = res.data!.issues;
    expect(issues.map((i) => [i.identifier, i.title])).toEqual([
      ["ENG-2", "One"],
      ["OPS-1", "Two"],
      ["ENG-3", "Three"],
    ]);
    expect(issues[0]).toMatchObject({ priority: 1, labels: ["bug"] });
    expect(issues[1]!.state.name).toBe("Todo");
    const read = await api.GET("/issues/{identifier}", { params: { path: { identifier: "ENG-3" } } });
    expect(read.data!.issue).toMatchObject({ title: "Three", estimate: 3 });
  });

  it("creates none when any item is refused, and says which item and why", async () => {
    const { api, count } = await workspace();
    const before = await count();
    const res = await api.POST("/issues/batch", {
      body: {
        issues: [
          { team: "ENG", title: "Fine" },
          { team: "NOPE", title: "No such team" },
          { team: "ENG", title: "Also fine" },
        ],
      },
    });
    expect(res.response.status).toBe(404);
    expect(res.response.headers.get("content-type")).toContain("application/problem+json");
    const problem = res.error as { code: string; detail: string; errors: { path: string }[] };
    expect(problem.code).toBe("not_found");
    expect(problem.detail).toMatch(/^Issue 2 of 3: No team "NOPE"/);
    expect(problem.errors[0]!.path).toBe("/body/issues/1");
    expect(await count()).toBe(before);
    // The numbers the refused batch would have taken are not used up.
    const next = await api.POST("/issues", { body: { team: "ENG", title: "Next" } });
    expect(next.data!.issue.identifier).toBe("ENG-1");

    const badState = await api.POST("/issues/batch", {
      body: {
        issues: [
          { team: "ENG", title: "A" },
          { team: "ENG", title: "B", state: "Nowhere" },
        ],
      },
    });
    expect(badState.response.status).toBe(400);
    expect((badState.error as { detail: string }).detail).toMatch(/^Issue 2 of 2: /);
    expect(await count()).toBe(before + 1);
  });

  it("takes 1 to 100 issues, each checked against the contract before anything is written", async () => {
    const { api, count } = await workspace();
    const before = await count();
    const many = Array.from({ length: 101 }, (_, i) => ({ team: "ENG", title: `Issue ${i}` }));
    for (const issues of [[], many, [{ team: "ENG" }], [{ team: "ENG", title: "x", colour: "red" }]]) {
      const res = await api.POST("/issues/batch", { body: { issues } as never });
      expect(res.response.status).toBe(400);
      expect((res.error as { code: string }).code).toBe("invalid_request");
    }
    const hundred = await api.POST("/issues/batch", { body: { issues: many.slice(0, 100) } });
    expect(hundred.response.status).toBe(201);
    expect(hundred.data!.issues.at(-1)!.identifier).toBe("ENG-100");
    expect(await count()).toBe(before + 100);
  });

  it("is idempotent: the same batch sent twice with one key is created once", async () => {
    const { api, count } = await workspace();
    const before = await count();
    const body = {
      issues: [
        { team: "ENG", title: "Imported 1" },
        { team: "ENG", title: "Imported 2" },
      ],
    };
    const headers = { "Idempotency-Key": "import-2026-11-25-part-1" };
    const first = await api.POST("/issues/batch", { body, headers });
    const second = await api.POST("/issues/batch", { body, headers });
    expect(second.response.status).toBe(201);
    expect(second.response.headers.get("idempotent-replayed")).toBe("true");
    expect(second.data).toEqual(first.data);
    expect(await count()).toBe(before + 2);
  });

  it("numbers two concurrent batches of one team each in one unbroken run", async () => {
    const { api } = await workspace();
    const batch = (name: string) =>
      api.POST("/issues/batch", {
        body: { issues: Array.from({ length: 20 }, (_, i) => ({ team: "ENG", title: `${name} ${i}` })) },
      });
    const [a, b] = await Promise.all([batch("A"), batch("B")]);
    for (const res of [a, b]) {
      const numbers = res.data!.issues.map((i) => Number(i.identifier.split("-")[1]));
      expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => numbers[0]! + i));
    }
    const all = [...a.data!.issues, ...b.data!.issues].map((i) => i.identifier).sort();
    expect(new Set(all).size).toBe(40);
  });

  it("refuses a guest's item in a team the guest has not joined, creating none", async () => {
    const { api, token, count } = await workspace();
    const guest = await srv.addMember(token, "guest");
    const before = await count();
    const res = await srv.client(guest.token).POST("/issues/batch", {
      body: { issues: [{ team: "ENG", title: "Guest" }] },
    });
    expect(res.response.status).toBe(404); // a team a guest has not joined is one the guest cannot see
    expect((res.error as { detail: string }).detail).toMatch(/^Issue 1 of 1: /);
    expect(await count()).toBe(before);
    expect((await api.GET("/issues", { params: { query: { team: "ENG" } } })).data!.issues).toHaveLength(0);
  });
});
