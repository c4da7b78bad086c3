import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../test/harness.js";

// The `state` and `assignee` sorts read keys the database keeps on each issue (db/functions/issue-sort-keys.ts):
// these tests change what the keys come from and check that the order follows.
let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(() => srv.close());

describe("the state and assignee sorts follow every change to what they sort by", () => {
  it("orders by assignee name as names, assignments and unassignments change", async () => {
    const { apiKey } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
    const api = srv.client(apiKey.token);
    const amy = await srv.addMember(apiKey.token, "member", "amy@example.com");
    const zed = await srv.addMember(apiKey.token, "member", "zed@example.com");
    await srv.query("update users set name = $2 where id = $1", [amy.userId, "Amy"]);
    await srv.query("update users set name = $2 where id = $1", [zed.userId, "zed"]);
    const create = async (title: string, assignee?: string) =>
      (await api.POST("/issues", { body: { team: "ENG", title, ...(assignee ? { assignee } : {}) } })).data!
        .issue.identifier;
    const toZed = await create("for zed", zed.email);
    const toAmy = await create("for amy", amy.email);
    const nobody = await create("nobody's");
    const order = async (sort: "assignee" | "-assignee") =>
      (await api.GET("/issues", { params: { query: { sort } } })).data!.issues.map((i) => i.identifier);

    expect(await order("assignee")).toEqual([toAmy, toZed, nobody]);
    expect(await order("-assignee")).toEqual([nobody, toZed, toAmy]);

    // A rename moves every issue of that person; case does not matter, as in the names themselves.
    await srv.query("update users set name = $2 where id = $1", [amy.userId, "Zoe"]);
    expect(await order("assignee")).toEqual([toZed, toAmy, nobody]);

    await api.PATCH("/issues/{identifier}", {
      params: { path: { identifier: nobody } },
      body: { assignee: amy.email },
    });
    await api.PATCH("/issues/{identifier}", {
      params: { path: { identifier: toZed } },
      body: { assignee: null },
    });
    expect(await order("assignee")).toEqual([toAmy, nobody, toZed]);
  });

  it("orders by state type then workflow position as issues change state or move to another team", async () => {
    const { apiKey } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
    const api = srv.client(apiKey.token);
    await api.POST("/teams", { body: { key: "OPS", name: "Operations" } });
    const create = async (title: string, state: string) =>
      (await api.POST("/issues", { body: { team: "ENG", title, state } })).data!.issue.identifier;
    const done = await create("done", "Done");
    const started = await create("started", "In Progress");
    const todo = await create("todo", "Todo");
    const backlog = await create("backlog", "Backlog");
    const order = async () =>
      (await api.GET("/issues", { params: { query: { sort: "state" } } })).data!.issues.map((i) => i.title);

    expect(await order()).toEqual(["backlog", "todo", "started", "done"]);
    await api.PATCH("/issues/{identifier}", {
      params: { path: { identifier: done } },
      body: { state: "Backlog" },
    });
    await api.PATCH("/issues/{identifier}", {
      params: { path: { identifier: backlog } },
      body: { state: "Canceled" },
    });
    expect(await order()).toEqual(["done", "todo", "started", "backlog"]);

    // A move maps the state to the target team's: its keys come from the new state.
    await api.POST("/issues/move", { body: { identifiers: [started, todo], team: "OPS" } });
    const moved = (await api.GET("/issues", { params: { query: { sort: "state", team: "OPS" } } })).data!
      .issues;
    expect(moved.map((i) => [i.title, i.state.name])).toEqual([
      ["todo", "Todo"],
      ["started", "In Progress"],
    ]);
    const keys = await srv.query<{ title: string; state_position: number; position: number }>(
      `select i.title, i.state_position, s.position from issues i join workflow_states s on s.id = i.state_id
        where i.title in ('todo', 'started')`,
    );
    for (const row of keys) expect(row.state_position).toBe(row.position);
  });
});
