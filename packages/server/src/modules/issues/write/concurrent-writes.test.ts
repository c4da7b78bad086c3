import { describe, expect, it } from "vitest";
import {
  driftedBlockers,
  driftedLabelIds,
  driftedProjectCounts,
  driftedTeamStateCounts,
} from "../../../test/derived-counts.js";
import { useTestServer } from "../../../test/harness.js";
import { whileHolding } from "../../../test/hold.js";

const srv = useTestServer();

describe("concurrent writes to related issues", () => {
  it("never fail: related issues changing state and project at the same moment all succeed", async () => {
    const { apiKey } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
    const api = srv.client(apiKey.token);
    await api.POST("/projects", { body: { name: "One", teams: ["ENG"] } });
    await api.POST("/projects", { body: { name: "Two", teams: ["ENG"] } });
    const create = async (title: string) =>
      (await api.POST("/issues", { body: { team: "ENG", title } })).data!.issue.identifier;
    // Pairs where the first blocks the second: a state change of either adjusts the other's counters, and
    // moving them between two projects in opposite directions adjusts both projects' counts.
    const pairs: [string, string][] = [];
    for (let i = 0; i < 3; i++) {
      const pair: [string, string] = [await create(`Blocker ${i}`), await create(`Blocked ${i}`)];
      await api.POST("/issues/{identifier}/relations", {
        params: { path: { identifier: pair[0] } },
        body: { issue: pair[1], type: "blocks" },
      });
      pairs.push(pair);
    }
    const statuses: number[] = [];
    for (let round = 0; round < 12; round++) {
      const results = await Promise.all(
        pairs.flatMap(([a, b]) =>
          [a, b].map((identifier, side) =>
            api.PATCH("/issues/{identifier}", {
              params: { path: { identifier } },
              body: {
                state: (round + side) % 2 ? "Done" : "Todo",
                project: (round + side) % 2 ? "One" : "Two",
              } as never,
            }),
          ),
        ),
      );
      statuses.push(...results.map((r) => r.response.status));
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(await driftedBlockers(srv)).toEqual([]);
    expect(await driftedProjectCounts(srv)).toEqual([]);
    expect(await driftedTeamStateCounts(srv)).toEqual([]);
    expect(await driftedLabelIds(srv)).toEqual([]);
  });

  it("moves of the same issues to different teams at once all succeed, each issue ending in one place", async () => {
    const { apiKey } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
    const api = srv.client(apiKey.token);
    await api.POST("/teams", { body: { key: "OPS", name: "Operations" } });
    await api.POST("/teams", { body: { key: "WEB", name: "Web" } });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await api.POST("/issues", { body: { team: "ENG", title: `Moving ${i}` } })).data!.issue.id);
    const identifiers = ["ENG-1", "ENG-2", "ENG-3"];
    const results = await Promise.all(
      ["OPS", "WEB", "OPS", "WEB", "OPS", "WEB"].map((team) =>
        api.POST("/issues/move", { body: { identifiers, team } }),
      ),
    );
    expect(results.map((r) => r.response.status)).toEqual([200, 200, 200, 200, 200, 200]);
    // Where each issue is now; every answer's `to` is where that request left it, and the last word
    // agrees with the database.
    const now = await srv.query<{ id: string; identifier: string }>(
      `select i.id, t.key || '-' || i.number as identifier
         from issues i join teams t on t.id = i.team_id where i.id = any($1::uuid[])`,
      [ids],
    );
    expect(now).toHaveLength(3);
    for (const r of now) expect(r.identifier).toMatch(/^(OPS|WEB)-\d+$/);
    expect(new Set(now.map((r) => r.identifier)).size).toBe(3);
    for (const r of results) for (const m of r.data!.moved) expect(m.to).toMatch(/^(OPS|WEB)-\d+$/);
    // The original identifiers still resolve, to wherever each issue went.
    for (const [i, identifier] of identifiers.entries()) {
      const read = await api.GET("/issues/{identifier}", { params: { path: { identifier } } });
      expect(read.data!.issue.id).toBe(ids[i]);
    }
  });

  it("a team deleted while issues are created in it or moved into it: 404 for those, never a 500", async () => {
    const { apiKey } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
    const api = srv.client(apiKey.token);
    for (let round = 0; round < 3; round++) {
      const key = `GONE${round}`;
      await api.POST("/teams", { body: { key, name: `Doomed ${round}` } });
      const mine = (await api.POST("/issues", { body: { team: "ENG", title: `Stays ${round}` } })).data!
        .issue;
      const results = await Promise.all([
        api.DELETE("/teams/{key}", { params: { path: { key } } }),
        ...Array.from({ length: 4 }, (_, i) =>
          api.POST("/issues", { body: { team: key, title: `Late ${i}` } }),
        ),
        api.POST("/issues/move", { body: { identifiers: [mine.identifier], team: key } }),
      ]);
      const [deleted, ...rest] = results.map((r) => r.response.status);
      expect(deleted).toBe(200);
      for (const status of rest) expect([200, 201, 404]).toContain(status);
    }
  });

  it("a cycle deleted while issues are put in it: 404 for those, never a 500", async () => {
    const { apiKey } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
    const api = srv.client(apiKey.token);
    await api.PATCH("/teams/{key}", { params: { path: { key: "ENG" } }, body: { cyclesEnabled: true } });
    const identifiers: string[] = [];
    for (let i = 0; i < 4; i++)
      identifiers.push(
        (await api.POST("/issues", { body: { team: "ENG", title: `Planned ${i}` } })).data!.issue.identifier,
      );
    for (let round = 0; round < 3; round++) {
      const cycle = (await api.POST("/cycles", { body: { team: "ENG" } as never })).data!.cycle;
      const results = await Promise.all([
        api.DELETE("/cycles/{id}", { params: { path: { id: cycle.id } } }),
        ...identifiers.map((identifier) =>
          api.PATCH("/issues/{identifier}", {
            params: { path: { identifier } },
            body: { cycle: cycle.number },
          }),
        ),
      ]);
      const [deleted, ...rest] = results.map((r) => r.response.status);
      expect(deleted).toBe(200);
      for (const status of rest) expect([200, 400, 404]).toContain(status);
    }
  });

  it("an issue never keeps a project whose teams changed under the write that set it", async () => {
    const { apiKey, workspace } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
    const api = srv.client(apiKey.token);
    await api.POST("/teams", { body: { key: "OPS", name: "Operations" } });
    const project = (await api.POST("/projects", { body: { name: "Shared", teams: ["ENG", "OPS"] } })).data!
      .project;
    await api.POST("/issues", { body: { team: "OPS", title: "Joins the project" } });
    await api.POST("/issues", { body: { team: "ENG", title: "Moves to OPS", project: "Shared" } });
    // Another transaction takes OPS off the project (as PATCH /projects does: project row first) and holds
    // it while an issue of OPS is put in the project and an issue of the project is moved to OPS.
    const [put, moved] = await whileHolding(
      srv,
      [
        ["update projects set updated_at = now() where id = $1", [project.id]],
        [
          "delete from project_teams pt using teams t where pt.project_id = $1 and t.id = pt.team_id and t.key = 'OPS' and t.workspace_id = $2",
          [project.id, workspace.id],
        ],
      ],
      () =>
        api.PATCH("/issues/{identifier}", {
          params: { path: { identifier: "OPS-1" } },
          body: { project: "Shared" },
        }),
      () => api.POST("/issues/move", { body: { identifiers: ["ENG-1"], team: "OPS" } }),
    );
    expect((await put).response.status).toBe(400);
    const move = await moved;
    expect(move.response.status).toBe(200);
    expect(move.data!.moved[0]!.clearedProject).toBe(true);
    expect(
      await srv.query(
        `select i.number from issues i where i.project_id = $1
            and not exists (select 1 from project_teams pt where pt.project_id = i.project_id and pt.team_id = i.team_id)`,
        [project.id],
      ),
    ).toEqual([]);
  });
});
