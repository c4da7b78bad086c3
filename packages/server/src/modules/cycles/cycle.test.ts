import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { type ApiClient, useTestServer } from "../../test/harness.js";
import { addIssue, addTeam, type FixtureTeam } from "../projects/planning.fixtures.js";

const srv = useTestServer();

const DAY = 86_400_000;

async function workspace() {
  const { apiKey, workspace, user } = await srv.bootstrap();
  const eng = await addTeam(srv, workspace.id, "ENG", [user.id], { cycleLengthWeeks: 2 });
  return { api: srv.client(apiKey.token), token: apiKey.token, ws: workspace, user, eng };
}

/** The request body with rollover left out, to exercise its default (the generated type marks it required). */
const body = (b: {
  team: string;
  name?: string | null;
  startsAt?: string;
  endsAt?: string;
  rollover?: boolean;
}) => b as { team: string; rollover: boolean };

async function createCycle(api: ApiClient, b: Parameters<typeof body>[0]) {
  const res = await api.POST("/cycles", { body: body(b) });
  if (res.response.status !== 201) throw new Error(`create failed: ${JSON.stringify(res.error)}`);
  return res.data!;
}

async function insertCycle(team: FixtureTeam, number: number, startDays: number, endDays: number) {
  const id = randomUUID();
  await srv.query(
    `insert into cycles (id, team_id, number, starts_at, ends_at, created_at)
     values ($1, $2, $3, now() + $4 * interval '1 day', now() + $5 * interval '1 day', now())`,
    [id, team.id, number, startDays, endDays],
  );
  return id;
}

describe("listCycles", () => {
  it("lists a team's cycles newest first with isActive from the dates", async () => {
    const { api, eng } = await workspace();
    await insertCycle(eng, 1, -30, -16);
    await insertCycle(eng, 2, -2, 12);
    await insertCycle(eng, 3, 12, 26);
    const res = await api.GET("/cycles", { params: { query: { team: "ENG" } } });
    expect(res.data!.cycles.map((c) => [c.number, c.isActive])).toEqual([
      [3, false],
      [2, true],
      [1, false],
    ]);
    const byId = await api.GET("/cycles", { params: { query: { team: eng.id } } });
    expect(byId.data!.cycles).toHaveLength(3);
  });

  it("requires a team it may see", async () => {
    const { api } = await workspace();
    const missing = await api.GET("/cycles", { params: { query: {} as { team: string } } });
    expect(missing.response.status).toBe(400);
    const unknown = await api.GET("/cycles", { params: { query: { team: "NOPE" } } });
    expect(unknown.response.status).toBe(404);
  });
});

describe("createCycle", () => {
  it("numbers cycles per team and defaults the dates from the team's cycle length after the previous one", async () => {
    const { api, ws, user } = await workspace();
    await addTeam(srv, ws.id, "OPS", [user.id], { cycleLengthWeeks: 1 });
    const before = Date.now();
    const first = await createCycle(api, { team: "ENG", name: "Sprint A" });
    const start = Date.parse(first.cycle.startsAt);
    expect(first.cycle).toMatchObject({ number: 1, name: "Sprint A", isActive: true });
    expect(Math.abs(start - before)).toBeLessThan(60_000);
    expect(Date.parse(first.cycle.endsAt) - start).toBe(14 * DAY);
    expect(first.rolledOver).toBe(0);

    // Planned ahead: from the latest cycle's end, leaving it whole.
    const second = await createCycle(api, { team: "ENG", startsAt: first.cycle.endsAt, rollover: false });
    expect(second.cycle).toMatchObject({
      number: 2,
      name: null,
      startsAt: first.cycle.endsAt,
      isActive: false,
    });
    expect(second).toMatchObject({ rolledOver: 0, endedPrevious: false, previous: first.cycle });
    expect(Date.parse(second.cycle.endsAt) - Date.parse(second.cycle.startsAt)).toBe(14 * DAY);

    const ops = await createCycle(api, { team: "OPS" });
    expect(ops.cycle.number).toBe(1);
    expect(Date.parse(ops.cycle.endsAt) - Date.parse(ops.cycle.startsAt)).toBe(7 * DAY);

    // One clock reading for both dates: two could straddle a millisecond.
    const now = Date.now();
    const explicit = await createCycle(api, {
      team: "OPS",
      startsAt: new Date(now + 30 * DAY).toISOString(),
      endsAt: new Date(now + 33 * DAY).toISOString(),
    });
    expect(explicit.cycle.number).toBe(2);
    expect(Date.parse(explicit.cycle.endsAt) - Date.parse(explicit.cycle.startsAt)).toBe(3 * DAY);

    const changes = await srv.query(
      "select entity, action, team_key from change_events where entity_id = $1",
      [first.cycle.id],
    );
    expect(changes).toEqual([{ entity: "cycle", action: "created", team_key: "ENG" }]);
  });

  it("rolls the previous cycle's unfinished issues into the new one, recording each", async () => {
    const { api, ws, eng } = await workspace();
    const previous = await insertCycle(eng, 1, -14, 0);
    const issues: Record<string, string> = {};
    for (const state of ["Todo", "In Progress", "Done", "Canceled", "Backlog"]) {
      issues[state] = (await addIssue(srv, ws.id, eng, { state, cycleId: previous })).id;
    }
    const res = await createCycle(api, { team: "ENG" });
    expect(res.rolledOver).toBe(3);
    const rows = await srv.query<{ id: string; cycle_id: string }>(
      "select id, cycle_id from issues where team_id = $1",
      [eng.id],
    );
    const cycleOf = Object.fromEntries(rows.map((r) => [r.id, r.cycle_id]));
    expect(cycleOf).toEqual({
      [issues.Todo!]: res.cycle.id,
      [issues["In Progress"]!]: res.cycle.id,
      [issues.Backlog!]: res.cycle.id,
      [issues.Done!]: previous,
      [issues.Canceled!]: previous,
    });
    const activity = await srv.query<{ issue_id: string; payload: unknown }>(
      "select issue_id, payload from activity_events where type = 'issue_updated' and workspace_id = $1",
      [ws.id],
    );
    expect(activity).toHaveLength(3);
    expect(activity.find((a) => a.issue_id === issues.Todo)?.payload).toEqual({
      changes: { cycle: { from: { id: previous, number: 1 }, to: { id: res.cycle.id, number: 2 } } },
    });
    const changed = await srv.query(
      "select count(*)::int as n from change_events where entity = 'issue' and workspace_id = $1",
      [ws.id],
    );
    expect(changed).toEqual([{ n: 3 }]);

    const noRollover = await createCycle(api, { team: "ENG", rollover: false });
    expect(noRollover.rolledOver).toBe(0);
    const still = await srv.query("select count(*)::int as n from issues where cycle_id = $1", [
      res.cycle.id,
    ]);
    expect(still).toEqual([{ n: 3 }]);
  });

  it("starts the next cycle now: the running one ends now and its unfinished issues move into it", async () => {
    const { api, ws, eng } = await workspace();
    const running = await insertCycle(eng, 1, -7, 7);
    const open = await addIssue(srv, ws.id, eng, { state: "In Progress", cycleId: running });
    const todo = await addIssue(srv, ws.id, eng, { state: "Todo", cycleId: running });
    const done = await addIssue(srv, ws.id, eng, { state: "Done", cycleId: running });
    const cycleOf = async (id: string) =>
      (await srv.query<{ cycle_id: string }>("select cycle_id from issues where id = $1", [id]))[0]!.cycle_id;
    const before = Date.now();
    const next = await createCycle(api, { team: "ENG" });
    expect(next).toMatchObject({
      cycle: { number: 2, isActive: true },
      rolledOver: 2,
      endedPrevious: true,
      previous: { id: running, number: 1, isActive: false },
    });
    expect(Math.abs(Date.parse(next.cycle.startsAt) - before)).toBeLessThan(60_000);
    expect(next.previous!.endsAt).toBe(next.cycle.startsAt);
    expect(Date.parse(next.cycle.endsAt) - Date.parse(next.cycle.startsAt)).toBe(14 * DAY);
    expect([await cycleOf(open.id), await cycleOf(todo.id), await cycleOf(done.id)]).toEqual([
      next.cycle.id,
      next.cycle.id,
      running,
    ]);
    const listed = await api.GET("/cycles", { params: { query: { team: "ENG" } } });
    expect(listed.data!.cycles.map((c) => [c.number, c.isActive])).toEqual([
      [2, true],
      [1, false],
    ]);
    const changes = await srv.query<{ entity: string; action: string; entity_id: string }>(
      "select entity, action, entity_id from change_events where workspace_id = $1 and entity = 'cycle' order by id",
      [ws.id],
    );
    expect(changes).toEqual([
      { entity: "cycle", action: "created", entity_id: next.cycle.id },
      { entity: "cycle", action: "updated", entity_id: running },
    ]);

    // rollover: false also ends the running cycle, and leaves its issues in it.
    const { api: api2, ws: ws2, eng: eng2 } = await workspace();
    const running2 = await insertCycle(eng2, 1, -3, 11);
    const stays = await addIssue(srv, ws2.id, eng2, { state: "Todo", cycleId: running2 });
    const fresh = await createCycle(api2, { team: "ENG", rollover: false });
    expect(fresh).toMatchObject({ rolledOver: 0, endedPrevious: true, cycle: { isActive: true } });
    expect(await cycleOf(stays.id)).toBe(running2);

    // Planned ahead with a start and no rollover: the running cycle stays as it was.
    const { api: api3, ws: ws3, eng: eng3 } = await workspace();
    const running3 = await insertCycle(eng3, 1, -3, 11);
    const kept = await addIssue(srv, ws3.id, eng3, { state: "Todo", cycleId: running3 });
    const [cycle1] = (await api3.GET("/cycles", { params: { query: { team: "ENG" } } })).data!.cycles;
    const planned = await createCycle(api3, { team: "ENG", startsAt: cycle1!.endsAt, rollover: false });
    expect(planned).toMatchObject({
      rolledOver: 0,
      endedPrevious: false,
      cycle: { number: 2, isActive: false, startsAt: cycle1!.endsAt },
      previous: { id: running3, isActive: true, endsAt: cycle1!.endsAt },
    });
    expect(await cycleOf(kept.id)).toBe(running3);
    // A start inside the running cycle overlaps it: refused, nothing changed.
    const overlap = await api3.POST("/cycles", {
      body: body({ team: "ENG", startsAt: new Date(Date.now() + DAY).toISOString(), rollover: false }),
    });
    expect(overlap.response.status).toBe(400);
  });

  it("changes nothing when refused after the number was taken, and never reuses a deleted cycle's number", async () => {
    const { api, ws, eng } = await workspace();
    const first = await createCycle(api, { team: "ENG" });
    const open = await addIssue(srv, ws.id, eng, { cycleId: first.cycle.id });
    const snapshot = () =>
      srv.query(
        `select (select json_agg(c order by c.number) from cycles c where c.team_id = $1) as cycles,
                (select last_number from cycle_counters where team_id = $1) as counter,
                (select cycle_id from issues where id = $2) as issue_cycle,
                (select count(*)::int from activity_events where workspace_id = $3) as activity`,
        [eng.id, open.id, ws.id],
      );
    const before = await snapshot();
    // Overlaps cycle 1: refused after the counter row was bumped and locked, so that rolls back too.
    const overlap = await api.POST("/cycles", {
      body: body({ team: "ENG", startsAt: first.cycle.startsAt, endsAt: first.cycle.endsAt }),
    });
    expect(overlap.response.status).toBe(400);
    expect(overlap.error?.code).toBe("invalid_request");
    const reversed = await api.POST("/cycles", {
      body: body({
        team: "ENG",
        startsAt: new Date(Date.now() + 40 * DAY).toISOString(),
        endsAt: new Date(Date.now() + 39 * DAY).toISOString(),
      }),
    });
    expect(reversed.response.status).toBe(400);
    expect(await snapshot()).toEqual(before);

    const second = await createCycle(api, { team: "ENG" });
    expect(second).toMatchObject({ cycle: { number: 2 }, rolledOver: 1, endedPrevious: true });
    const del = await api.DELETE("/cycles/{id}", { params: { path: { id: second.cycle.id } } });
    expect(del.data).toEqual({ deleted: true });
    const third = await createCycle(api, { team: "ENG" });
    expect(third.cycle.number).toBe(3);
  });

  it("refuses teams with cycles disabled and guests", async () => {
    const { api, token, ws, user } = await workspace();
    const off = await addTeam(srv, ws.id, "OFF", [user.id], { cyclesEnabled: false });
    const disabled = await api.POST("/cycles", { body: body({ team: "OFF" }) });
    expect(disabled.response.status).toBe(409);
    expect(disabled.error?.code).toBe("conflict");
    const guest = await srv.addMember(token, "guest");
    await srv.query(
      "insert into team_members (id, team_id, user_id, created_at) values ($1, $2, $3, now())",
      [randomUUID(), off.id, guest.userId],
    );
    const g = srv.client(guest.token);
    const refused = await g.POST("/cycles", { body: body({ team: "ENG" }) });
    expect([403, 404]).toContain(refused.response.status);
    const refusedOwnTeam = await g.POST("/cycles", { body: body({ team: "OFF" }) });
    expect(refusedOwnTeam.response.status).toBe(403);
    expect(refusedOwnTeam.error?.code).toBe("forbidden");
    const listed = await g.GET("/cycles", { params: { query: { team: "OFF" } } });
    expect(listed.response.status).toBe(200);
    expect(
      await srv.query("select 1 from cycles c join teams t on t.id = c.team_id where t.workspace_id = $1", [
        ws.id,
      ]),
    ).toEqual([]);
  });
});

describe("updateCycle and deleteCycle", () => {
  it("updates name and dates, refusing overlaps, reversed dates and guests", async () => {
    const { api, token, eng } = await workspace();
    await insertCycle(eng, 1, -14, 0);
    const c2 = await insertCycle(eng, 2, 0, 14);
    const res = await api.PATCH("/cycles/{id}", { params: { path: { id: c2 } }, body: { name: "Launch" } });
    expect(res.error).toBeUndefined();
    expect(res.data!.cycle).toMatchObject({ id: c2, number: 2, name: "Launch", isActive: true });

    const later = new Date(Date.now() + 20 * DAY).toISOString();
    const moved = await api.PATCH("/cycles/{id}", { params: { path: { id: c2 } }, body: { endsAt: later } });
    expect(moved.data!.cycle.endsAt).toBe(later);
    const overlap = await api.PATCH("/cycles/{id}", {
      params: { path: { id: c2 } },
      body: { startsAt: new Date(Date.now() - 5 * DAY).toISOString() },
    });
    expect(overlap.response.status).toBe(400);
    const reversed = await api.PATCH("/cycles/{id}", {
      params: { path: { id: c2 } },
      body: { endsAt: new Date(Date.now() - 1000).toISOString(), startsAt: new Date().toISOString() },
    });
    expect(reversed.response.status).toBe(400);
    const cleared = await api.PATCH("/cycles/{id}", { params: { path: { id: c2 } }, body: { name: null } });
    expect(cleared.data!.cycle).toMatchObject({ name: null, endsAt: later });

    const guest = await srv.addMember(token, "guest");
    const g = await srv
      .client(guest.token)
      .PATCH("/cycles/{id}", { params: { path: { id: c2 } }, body: { name: "x" } });
    expect(g.response.status).toBe(403);
    const unknown = await api.PATCH("/cycles/{id}", { params: { path: { id: randomUUID() } }, body: {} });
    expect(unknown.response.status).toBe(404);
    const notAnId = await api.PATCH("/cycles/{id}", { params: { path: { id: "3" } }, body: {} });
    expect(notAnId.response.status).toBe(404);
  });

  it("deletes a cycle; its issues stay and lose it, each recorded", async () => {
    const { api, ws, eng } = await workspace();
    const c1 = await insertCycle(eng, 1, -2, 12);
    const a = await addIssue(srv, ws.id, eng, { cycleId: c1 });
    const b = await addIssue(srv, ws.id, eng, { cycleId: c1, state: "Done" });
    const res = await api.DELETE("/cycles/{id}", { params: { path: { id: c1 } } });
    expect(res.data).toEqual({ deleted: true });
    const rows = await srv.query("select id, cycle_id from issues where id = any($1) order by number", [
      [a.id, b.id],
    ]);
    expect(rows).toEqual([
      { id: a.id, cycle_id: null },
      { id: b.id, cycle_id: null },
    ]);
    const activity = await srv.query(
      "select count(*)::int as n from activity_events where type = 'issue_updated' and issue_id = any($1)",
      [[a.id, b.id]],
    );
    expect(activity).toEqual([{ n: 2 }]);
    expect((await api.GET("/cycles", { params: { query: { team: "ENG" } } })).data!.cycles).toEqual([]);
    const again = await api.DELETE("/cycles/{id}", { params: { path: { id: c1 } } });
    expect(again.response.status).toBe(404);
  });
});
