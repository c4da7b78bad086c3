import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test/harness.js";

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(() => srv.close());

describe("GET /projects/{id} and GET /initiatives/{id} (real server)", () => {
  it("answer one project or initiative by id or name, exactly as the list shows it, and 404 what the caller cannot see", async () => {
    const { apiKey } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
    const admin = srv.client(apiKey.token);
    await admin.POST("/teams", { body: { key: "OPS", name: "Operations" } });
    const initiative = (await admin.POST("/initiatives", { body: { name: "Growth", status: "active" } }))
      .data!.initiative;
    const launch = (
      await admin.POST("/projects", {
        body: { name: "Launch", teams: ["ENG"], initiative: "Growth", targetDate: "2030-01-31" },
      })
    ).data!.project;
    await admin.POST("/projects", { body: { name: "Ops only", teams: ["OPS"] } });
    await admin.POST("/issues", {
      body: { team: "ENG", title: "Ship it", project: "Launch", state: "Done" },
    });
    await admin.POST("/issues", { body: { team: "ENG", title: "Docs", project: "Launch" } });

    const listed = (await admin.GET("/projects", {})).data!.projects.find((p) => p.id === launch.id)!;
    for (const ref of [launch.id, "launch", "Launch"]) {
      const one = await admin.GET("/projects/{id}", { params: { path: { id: ref } } });
      expect(one.response.status).toBe(200);
      expect(one.data!.project).toEqual(listed);
    }
    expect(listed.progress).toMatchObject({ done: 1, total: 2 });

    const listedInitiative = (await admin.GET("/initiatives", {})).data!.initiatives.find(
      (i) => i.id === initiative.id,
    )!;
    for (const ref of [initiative.id, "GROWTH"]) {
      const one = await admin.GET("/initiatives/{id}", { params: { path: { id: ref } } });
      expect(one.data!.initiative).toEqual(listedInitiative);
    }

    for (const missing of ["Nope", "00000000-0000-4000-8000-000000000000"]) {
      const project = await admin.GET("/projects/{id}", { params: { path: { id: missing } } });
      expect(project.response.status).toBe(404);
      expect((project.error as { code: string }).code).toBe("not_found");
      const init = await admin.GET("/initiatives/{id}", { params: { path: { id: missing } } });
      expect(init.response.status).toBe(404);
    }

    // A guest of ENG sees Launch (and so answers for it) but not the OPS project: the read follows the list.
    const guest = await srv.addMember(apiKey.token, "guest");
    await admin.POST("/teams/{key}/members", {
      params: { path: { key: "ENG" } },
      body: { userId: guest.userId },
    });
    const asGuest = srv.client(guest.token);
    const guestList = (await asGuest.GET("/projects", {})).data!.projects.map((p) => p.name);
    expect(guestList).toContain("Launch");
    expect(guestList).not.toContain("Ops only");
    expect(
      (await asGuest.GET("/projects/{id}", { params: { path: { id: "Launch" } } })).response.status,
    ).toBe(200);
    const hidden = await asGuest.GET("/projects/{id}", { params: { path: { id: "Ops only" } } });
    expect(hidden.response.status).toBe(404);
  });
});
