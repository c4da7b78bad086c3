import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../server.js";
import { type ApiClient, startAnotherInstance, useTestServer } from "../../test/harness.js";

/**
 * The issue list takes the names of what issues refer to from each server's cache of the workspace's
 * names, checked against `workspaces.names_version` in the list statement itself. Whatever renames
 * something, and through whichever server, the next list shows the new name.
 */
const srv = useTestServer();
let second: RunningServer;
let api: ApiClient;
let token = "";
let wsId = "";

beforeAll(async () => {
  second = await startAnotherInstance(srv.databaseUrl);
  const boot = await srv.bootstrap({ team: { key: "NAM", name: "Names" } });
  token = boot.apiKey.token;
  wsId = boot.workspace.id;
  api = srv.client(token);
  await api.POST("/projects", { body: { name: "Orbit", teams: ["NAM"] } });
  await api.PATCH("/teams/{key}", { params: { path: { key: "NAM" } }, body: { cyclesEnabled: true } });
  const cycle = await api.POST("/cycles", { body: { team: "NAM" } as never });
  expect(cycle.response.status).toBe(201);
  const created = await api.POST("/issues", {
    body: { team: "NAM", title: "Named things", labels: ["beta", "Alpha"], assignee: "me", project: "Orbit" },
  });
  expect(created.response.status).toBe(201);
  await api.PATCH("/issues/{identifier}", {
    params: { path: { identifier: created.data!.issue.identifier } },
    body: { cycle: cycle.data!.cycle.number },
  });
}, 60_000);

afterAll(async () => {
  await second?.close();
});

/** The list's only issue, as `client` sees it. */
async function listed(client: ApiClient = api) {
  const res = await client.GET("/issues", { params: { query: { team: "NAM" } } });
  expect(res.response.status).toBe(200);
  expect(res.data!.issues).toHaveLength(1);
  return res.data!.issues[0]!;
}

/** The same list through the second server on the same database. */
async function listedOnSecond() {
  const res = await fetch(`${second.url}/api/v1/issues?team=NAM`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { issues: Awaited<ReturnType<typeof listed>>[] };
  return body.issues[0]!;
}

async function version(): Promise<number> {
  const [row] = await srv.query<{ v: string }>("select names_version as v from workspaces where id = $1", [
    wsId,
  ]);
  return Number(row!.v);
}

describe("names in the issue list", () => {
  it("shows every reference's name, labels in their order", async () => {
    const issue = await listed();
    expect(issue.identifier).toMatch(/^NAM-\d+$/);
    expect(issue.team.name).toBe("Names");
    expect(issue.state.name).toBeTruthy();
    expect(issue.assignee?.name).toBeTruthy();
    expect(issue.project?.name).toBe("Orbit");
    expect(issue.cycle?.number).toBe(1);
    expect(issue.labels).toEqual(["Alpha", "beta"]);
    expect(await listedOnSecond()).toEqual(issue);
  });

  it("shows a rename made through another server at once, on both", async () => {
    await listed();
    await listedOnSecond(); // both servers now hold the names
    const rename = async (path: string, body: object) => {
      const res = await fetch(`${second.url}/api/v1${path}`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
    };
    const labels = await api.GET("/labels");
    const alpha = labels.data!.labels.find((l) => l.name === "Alpha")!;
    await rename(`/labels/${alpha.id}`, { name: "gamma" });
    expect((await listed()).labels).toEqual(["beta", "gamma"]);

    await rename("/projects/Orbit", { name: "Lunar" });
    expect((await listed()).project?.name).toBe("Lunar");

    await rename("/teams/NAM", { name: "Nomenclature" });
    expect((await listed()).team.name).toBe("Nomenclature");
    expect(await listedOnSecond()).toEqual(await listed());
  });

  it("shows names changed by any writer of the database, not only the API", async () => {
    const issue = await listed();
    await srv.query("update workflow_states set name = 'Thinking' where id = $1", [issue.state.id]);
    await srv.query("update users set name = 'Renamed Person', email = 'renamed@example.com' where id = $1", [
      issue.assignee!.id,
    ]);
    const after = await listed();
    expect(after.state.name).toBe("Thinking");
    expect(after.assignee).toEqual({
      id: issue.assignee!.id,
      name: "Renamed Person",
      email: "renamed@example.com",
    });
    expect(await listedOnSecond()).toEqual(after);
  });

  it("still names an assignee who has left the workspace", async () => {
    const member = await srv.addMember(token, "member");
    const issue = await listed();
    await api.PATCH("/issues/{identifier}", {
      params: { path: { identifier: issue.identifier } },
      body: { assignee: member.email },
    });
    expect((await listed()).assignee?.id).toBe(member.userId);
    const removed = await api.DELETE("/members/{userId}", { params: { path: { userId: member.userId } } });
    expect(removed.response.status).toBe(200);
    const after = await listed();
    expect(after.assignee).toEqual({ id: member.userId, name: expect.any(String), email: member.email });
    expect(after.assignee!.name).toBe(member.email.split("@")[0]);
  });

  it("keeps its version while issues are written, so the names stay cached", async () => {
    const before = await version();
    const created = await api.POST("/issues", { body: { team: "NAM", title: "Another", labels: ["beta"] } });
    await api.PATCH("/issues/{identifier}", {
      params: { path: { identifier: created.data!.issue.identifier } },
      body: { priority: 2, title: "Another one", description: "words", estimate: 3 },
    });
    await api.POST("/projects", { body: { name: "Second", teams: ["NAM"] } }); // a new name: one bump
    await api.PATCH("/projects/{id}", { params: { path: { id: "Second" } }, body: { description: "more" } });
    expect(await version()).toBe(before + 1);
  });

  it("is bumped by every write of a shown name, and by nothing else on those rows", async () => {
    const [team] = await srv.query<{ id: string }>(
      "select id from teams where workspace_id = $1 and key = 'NAM'",
      [wsId],
    );
    const bumps = async (statement: string, params: unknown[] = []) => {
      const before = await version();
      await srv.query(statement, params);
      return (await version()) - before;
    };
    expect(await bumps("update teams set key = 'NAMX' where id = $1", [team!.id])).toBe(1);
    expect(await bumps("update teams set key = 'NAM' where id = $1", [team!.id])).toBe(1);
    expect(await bumps("update teams set cycle_length_weeks = 3 where id = $1", [team!.id])).toBe(0);
    expect(
      await bumps(
        "insert into cycles (id, team_id, number, starts_at, ends_at, created_at) values (gen_random_uuid(), $1, 99, now(), now() + interval '1 day', now())",
        [team!.id],
      ),
    ).toBe(1);
    expect(
      await bumps("update cycles set name = 'Named' where team_id = $1 and number = 99", [team!.id]),
    ).toBe(0);
    expect(await bumps("delete from cycles where team_id = $1 and number = 99", [team!.id])).toBe(1);
    expect(await bumps("update workflow_states set color = '#000000' where team_id = $1", [team!.id])).toBe(
      0,
    );
    expect(
      await bumps("update workflow_states set type = type, name = name || '' where team_id = $1", [team!.id]),
    ).toBe(0);
    expect(await bumps("update labels set color = '#111111' where workspace_id = $1", [wsId])).toBe(0);
    expect(
      await bumps(
        "insert into labels (id, workspace_id, name, color, created_at, updated_at) values (gen_random_uuid(), $1, 'fresh', '#222222', now(), now())",
        [wsId],
      ),
    ).toBe(1);
    expect(await bumps("delete from labels where workspace_id = $1 and name = 'fresh'", [wsId])).toBe(1);
    const member = await srv.addMember(token, "guest");
    expect(await bumps("update memberships set role = 'member' where user_id = $1", [member.userId])).toBe(0);
    expect(await bumps("delete from memberships where user_id = $1", [member.userId])).toBe(1);
  });
});
