import type { operations } from "@tracker/sdk/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test/harness.js";

// The contract's "Pagination": `cursor` and `nextCursor` on the project and initiative lists, for every sort.
let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(() => srv.close());

type ProjectSort = NonNullable<NonNullable<operations["listProjects"]["parameters"]["query"]>["sort"]>;
type InitiativeSort = NonNullable<NonNullable<operations["listInitiatives"]["parameters"]["query"]>["sort"]>;

describe("cursor pagination of the project and initiative lists", () => {
  it("walks the same projects and initiatives as one big page for every sort, both ways", async () => {
    const { apiKey, workspace } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
    const api = srv.client(apiKey.token);
    const amy = await srv.addMember(apiKey.token, "member", "amy@example.com");
    const projectStatuses = ["backlog", "planned", "started", "paused", "completed", "canceled"] as const;
    const initiativeStatuses = ["planned", "active", "completed", "canceled"] as const;
    const initiatives: string[] = [];
    for (let n = 0; n < 14; n++) {
      const res = await api.POST("/initiatives", {
        body: {
          // Names repeat but for case (ties broken by id), target dates repeat and are missing.
          name: `${n % 2 ? "Goal" : "goal"} ${n % 5}${"x".repeat(n)}`,
          status: initiativeStatuses[n % 4],
          lead: n % 3 ? amy.email : null,
          targetDate: n % 3 === 0 ? null : `2027-0${1 + (n % 4)}-01`,
        },
      });
      expect(res.response.status).toBe(201);
      initiatives.push(res.data!.initiative.id);
    }
    for (let n = 0; n < 30; n++) {
      const res = await api.POST("/projects", {
        body: {
          name: `${n % 2 ? "Plan" : "plan"} ${n % 7} ${n}`,
          teams: ["ENG"],
          status: projectStatuses[n % 6],
          lead: n % 3 ? amy.email : null,
          targetDate: n % 4 === 0 ? null : `2027-0${1 + (n % 3)}-01`,
        },
      });
      expect(res.response.status).toBe(201);
      if (n % 2) {
        await srv.query("update projects set initiative_id = $2 where id = $1", [
          res.data!.project.id,
          initiatives[n % initiatives.length],
        ]);
      }
    }
    // Equal update times, so ties of `updated` are broken too.
    await srv.query(
      "update projects set updated_at = timestamptz '2026-11-01' + (abs(hashtext(name)) % 3) * interval '1 day' where workspace_id = $1",
      [workspace.id],
    );
    await srv.query(
      "update initiatives set updated_at = timestamptz '2026-11-01' + (abs(hashtext(name)) % 3) * interval '1 day' where workspace_id = $1",
      [workspace.id],
    );

    const projectKeys = ["name", "target", "health", "status", "updated", "progress", "scope", "lead"];
    for (const key of projectKeys)
      for (const sort of [key, `-${key}`] as ProjectSort[]) {
        const whole = (await api.GET("/projects", { params: { query: { sort, limit: 200 } } })).data!;
        expect(whole.projects).toHaveLength(30);
        expect(whole.nextCursor).toBeNull();
        const ids: string[] = [];
        let cursor: string | undefined;
        for (;;) {
          const res = await api.GET("/projects", {
            params: { query: { sort, limit: 4, ...(cursor ? { cursor } : {}) } },
          });
          expect(res.response.status, JSON.stringify(res.error)).toBe(200);
          ids.push(...res.data!.projects.map((p) => p.id));
          if (cursor) expect(res.data!.nextOffset).toBeNull();
          if (!res.data!.nextCursor) break;
          cursor = res.data!.nextCursor;
        }
        expect(ids, sort).toEqual(whole.projects.map((p) => p.id));
      }
    const initiativeKeys = ["name", "target", "health", "status", "updated", "progress", "projects"];
    for (const key of initiativeKeys)
      for (const sort of [key, `-${key}`] as InitiativeSort[]) {
        const whole = (await api.GET("/initiatives", { params: { query: { sort, limit: 200 } } })).data!;
        expect(whole.initiatives).toHaveLength(14);
        const ids: string[] = [];
        let cursor: string | undefined;
        for (;;) {
          const res = await api.GET("/initiatives", {
            params: { query: { sort, limit: 3, ...(cursor ? { cursor } : {}) } },
          });
          expect(res.response.status, JSON.stringify(res.error)).toBe(200);
          ids.push(...res.data!.initiatives.map((p) => p.id));
          if (!res.data!.nextCursor) break;
          cursor = res.data!.nextCursor;
        }
        expect(ids, sort).toEqual(whole.initiatives.map((p) => p.id));
      }

    // A cursor of one list is refused by the other, as are one of another sort and one with an offset.
    const page = (await api.GET("/projects", { params: { query: { limit: 2 } } })).data!;
    for (const query of [
      { cursor: page.nextCursor! },
      { cursor: page.nextCursor!, sort: "name" as const },
      { cursor: "garbage" },
    ]) {
      const res = await api.GET("/initiatives", { params: { query } });
      expect(res.response.status).toBe(400);
    }
    expect(
      (await api.GET("/projects", { params: { query: { cursor: page.nextCursor!, offset: 2 } } })).response
        .status,
    ).toBe(400);
  });
});
