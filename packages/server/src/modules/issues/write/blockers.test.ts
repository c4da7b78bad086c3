import { describe, expect, it } from "vitest";
import { driftedBlockers } from "../../../test/derived-counts.js";
import { useTestServer } from "../../../test/harness.js";

const srv = useTestServer();

describe("blocked and blocking", () => {
  it("follow relations and states through creates, deletes, state changes, moves and team deletes", async () => {
    const { apiKey } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
    const api = srv.client(apiKey.token);
    await api.POST("/teams", { body: { key: "OPS", name: "Operations" } as never });
    const create = async (title: string, team = "ENG") =>
      (await api.POST("/issues", { body: { team, title } })).data!.issue.identifier;
    const relate = async (from: string, issue: string, type: "blocks" | "related" = "blocks") =>
      (
        await api.POST("/issues/{identifier}/relations", {
          params: { path: { identifier: from } },
          body: { issue, type },
        })
      ).data!.relation.id;
    const state = (identifier: string, name: string) =>
      api.PATCH("/issues/{identifier}", { params: { path: { identifier } }, body: { state: name } });
    const special = async (s: "blocked" | "blocking") =>
      (await api.GET("/issues", { params: { query: { special: [s], sort: "title" } } })).data!.issues.map(
        (i) => i.title,
      );

    const a = await create("A");
    const b = await create("B");
    const c = await create("C");
    const d = await create("D", "OPS");
    await relate(a, b); // A blocks B
    const cb = await relate(c, b); // C blocks B
    await relate(d, a); // D (OPS) blocks A
    await relate(b, c, "related");
    expect(await special("blocked")).toEqual(["A", "B"]);
    expect(await special("blocking")).toEqual(["A", "C", "D"]);
    expect(await driftedBlockers(srv)).toEqual([]);

    // A done: B is still blocked by C, and A by D; D no longer blocks anything open, A still does.
    await state(a, "Done");
    expect(await special("blocked")).toEqual(["A", "B"]);
    expect(await special("blocking")).toEqual(["A", "C"]);
    await api.DELETE("/issues/{identifier}/relations/{relationId}", {
      params: { path: { identifier: b, relationId: cb } },
    });
    expect(await special("blocked")).toEqual(["A"]);
    await state(a, "Todo");
    expect(await special("blocked")).toEqual(["A", "B"]);
    await state(b, "Canceled");
    expect(await special("blocking")).toEqual(["D"]);
    await state(b, "In Progress");
    expect(await driftedBlockers(srv)).toEqual([]);

    // Moving B to OPS keeps its relations (open state matched by name).
    await api.POST("/issues/move", { body: { identifiers: [b], team: "OPS" } });
    expect(await special("blocked")).toEqual(["A", "B"]);
    expect(await driftedBlockers(srv)).toEqual([]);

    // Deleting OPS deletes D (which blocks A) and B (blocked by A), in one statement.
    await api.DELETE("/teams/{key}", { params: { path: { key: "OPS" }, query: { deleteProjects: true } } });
    expect(await special("blocked")).toEqual([]);
    expect(await special("blocking")).toEqual([]);
    expect(await driftedBlockers(srv)).toEqual([]);
  });
});
