import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { driftedBlockers, driftedProjectCounts } from "../../test/derived-counts.js";
import { startTestServer, type TestServer } from "../../test/harness.js";

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(() => srv.close());

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
  });
});
