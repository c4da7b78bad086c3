import { describe, expect, it } from "vitest";
import { driftedProjectCounts } from "../../test/derived-counts.js";
import { useTestServer } from "../../test/harness.js";

const srv = useTestServer();

describe("project progress counts", () => {
  it("stay equal to the project's issues through creates, state changes, project changes, moves and team deletes", async () => {
    const { apiKey } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
    const api = srv.client(apiKey.token);
    await api.POST("/teams", { body: { key: "OPS", name: "Operations" } as never });
    await api.POST("/projects", { body: { name: "Solo", teams: ["ENG"] } });
    await api.POST("/projects", { body: { name: "Shared", teams: ["ENG", "OPS"] } });
    expect(await driftedProjectCounts(srv)).toEqual([]);

    const create = async (state: string, project = "Solo") =>
      (await api.POST("/issues", { body: { team: "ENG", title: state, state, project } })).data!.issue;
    const backlog = await create("Backlog");
    const done = await create("Done");
    const canceled = await create("Canceled");
    const started = await create("In Progress");
    expect(await driftedProjectCounts(srv)).toEqual([]);

    const patch = (identifier: string, body: Record<string, unknown>) =>
      api.PATCH("/issues/{identifier}", { params: { path: { identifier } }, body: body as never });
    await patch(backlog.identifier, { state: "Done" });
    await patch(done.identifier, { state: "In Progress" });
    await patch(canceled.identifier, { project: "Shared" });
    await patch(started.identifier, { project: null });
    expect(await driftedProjectCounts(srv)).toEqual([]);

    // Solo does not belong to OPS: the move clears it. Shared does: the issue keeps it.
    const moved = await api.POST("/issues/move", {
      body: { identifiers: [backlog.identifier, canceled.identifier], team: "OPS" },
    });
    expect(moved.data!.moved.map((m) => m.clearedProject)).toEqual([true, false]);
    expect(await driftedProjectCounts(srv)).toEqual([]);

    const listed = async () =>
      Object.fromEntries(
        (await api.GET("/projects")).data!.projects.map((p) => [p.name, [p.progress.done, p.progress.total]]),
      );
    // Solo: the issue moved back to started (0 of 1); Shared: one canceled issue (0 of 0).
    expect(await listed()).toEqual({ Solo: [0, 1], Shared: [0, 0] });

    // Deleting OPS deletes its issues, among them Shared's.
    await patch(canceled.identifier, { state: "Done" });
    expect(await listed()).toEqual({ Solo: [0, 1], Shared: [1, 1] });
    await api.DELETE("/teams/{key}", { params: { path: { key: "OPS" }, query: { deleteProjects: true } } });
    expect(await driftedProjectCounts(srv)).toEqual([]);
    expect(await listed()).toEqual({ Solo: [0, 1], Shared: [0, 0] });
  });

  it("stay exact under concurrent creates and state changes in one project", async () => {
    const { apiKey } = await srv.bootstrap({ team: { key: "WEB", name: "Web" } });
    const api = srv.client(apiKey.token);
    await api.POST("/projects", { body: { name: "Busy", teams: ["WEB"] } });
    const created = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        api.POST("/issues", { body: { team: "WEB", title: `Busy ${i}`, project: "Busy" } }),
      ),
    );
    expect(created.map((r) => r.response.status)).toEqual(Array(40).fill(201));
    const done = await Promise.all(
      created.slice(0, 15).map((r) =>
        api.PATCH("/issues/{identifier}", {
          params: { path: { identifier: r.data!.issue.identifier } },
          body: { state: "Done" },
        }),
      ),
    );
    expect(done.map((r) => r.response.status)).toEqual(Array(15).fill(200));
    const busy = (await api.GET("/projects")).data!.projects.find((p) => p.name === "Busy")!;
    expect(busy.progress).toMatchObject({ done: 15, total: 40 });
    expect(await driftedProjectCounts(srv)).toEqual([]);
  });
});
