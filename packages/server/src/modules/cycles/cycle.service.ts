import { randomUUID } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { sql, sqlOne } from "../../db/sql.js";
import { q, raw } from "../../db/sql-fragment.js";
import { iso } from "../../db/sql-time.js";
import { type Change, recordChanges } from "../../events/record-change.query.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { Conflict, fieldPath, Invalid } from "../../http/problem.js";
import { FINISHED_STATE_TYPES_SQL } from "../../rules/state-types.js";
import { visibleTeamCondition } from "../../rules/visibility.js";
import { reassignIssues } from "../planning/reassign-issues.query.js";
import { findById, resolveTeam } from "../shared/resolve.query.js";
import { Cycle } from "./cycle.entity.js";

type Schemas = components["schemas"];
export type CycleOut = Schemas["Cycle"];

interface CycleRow {
  id: string;
  number: number;
  name: string | null;
  starts_at: Date | string;
  ends_at: Date | string;
  is_active: boolean;
}

/** `isActive` is computed by the database from its clock: starts_at <= now < ends_at. */
const CYCLE_COLUMNS =
  "c.id, c.number, c.name, c.starts_at, c.ends_at, (c.starts_at <= now() and now() < c.ends_at) as is_active";

const cycleOut = (r: CycleRow): CycleOut => ({
  id: r.id,
  number: r.number,
  name: r.name,
  startsAt: iso(r.starts_at)!,
  endsAt: iso(r.ends_at)!,
  isActive: r.is_active,
});

export async function listCycles(scope: WorkspaceScope, teamRef: string): Promise<CycleOut[]> {
  const team = await resolveTeam(scope, teamRef);
  const rows = await sql<CycleRow>(
    scope.em,
    q`select ${raw(CYCLE_COLUMNS)} from cycles c where c.team_id = ${team.id} order by c.number desc`,
  );
  return rows.map(cycleOut);
}

/**
 * Refuses a range that does not end after it starts or that overlaps another cycle of the team (ranges
 * are half-open, so one cycle may start when another ends). Compared in SQL on full-precision timestamps
 * (text in, text out): JavaScript dates round microseconds away and would make touching cycles overlap.
 */
async function checkDates(
  em: EntityManager,
  teamId: string,
  startsAt: string,
  endsAt: string,
  exceptId?: string,
) {
  const row = await sqlOne<{ ordered: boolean; overlap: number | null }>(
    em,
    q`select ${startsAt}::timestamptz < ${endsAt}::timestamptz as ordered,
            case when ${startsAt}::timestamptz < ${endsAt}::timestamptz then (
              select number from cycles
               where team_id = ${teamId} and id <> coalesce(${exceptId ?? null}::uuid, '00000000-0000-0000-0000-000000000000'::uuid)
                 and tstzrange(starts_at, ends_at) && tstzrange(${startsAt}::timestamptz, ${endsAt}::timestamptz)
               order by number limit 1) end as overlap`,
  );
  if (!row!.ordered) {
    throw new Invalid("The cycle must end after it starts.", [
      { path: fieldPath("body", "endsAt"), message: "must be after startsAt" },
    ]);
  }
  if (row!.overlap !== null) {
    throw new Invalid(`The dates overlap cycle ${row!.overlap} of this team.`, [
      { path: fieldPath("body", "startsAt"), message: `overlaps cycle ${row!.overlap}` },
    ]);
  }
}

function cycleChange(teamKey: string, teamId: string, id: string, action: Change["action"]): Change {
  return { entity: "cycle", action, id, teamKey, teamId };
}

/**
 * Starts the team's next cycle. The number comes from the team's counter row, bumped by an upsert that
 * holds its lock until commit: concurrent creates are serialised (each then sees the other's cycle when
 * it picks the previous one and checks overlaps) and a deleted cycle's number is never handed out again.
 */
export async function createCycle(scope: WorkspaceScope, input: Schemas["CycleCreate"]) {
  const team = await resolveTeam(scope, input.team);
  if (!team.cycles_enabled) throw new Conflict("conflict", `Cycles are disabled for team ${team.key}.`);
  return scope.em.transactional(async (em) => {
    const counter = await sqlOne<{ last_number: number }>(
      em,
      q`insert into cycle_counters (team_id, last_number)
       values (${team.id}, (select coalesce(max(number), 0) + 1 from cycles where team_id = ${team.id}))
       on conflict (team_id) do update
         set last_number = greatest(cycle_counters.last_number,
                                    (select coalesce(max(number), 0) from cycles where team_id = excluded.team_id)) + 1
       returning last_number`,
    );
    const number = counter!.last_number;
    const previous = await sqlOne<{ id: string; number: number }>(
      em,
      q`select id, number from cycles where team_id = ${team.id} and number < ${number} order by number desc limit 1`,
    );
    const dates = await sqlOne<{ starts_at: string; ends_at: string }>(
      em,
      q`select s.starts_at::text as starts_at,
              coalesce(${input.endsAt ?? null}::timestamptz, s.starts_at + make_interval(weeks => ${team.cycle_length_weeks}))::text as ends_at
         from (select coalesce(${input.startsAt ?? null}::timestamptz, greatest(now(), (select ends_at from cycles where id = ${previous?.id ?? null}))) as starts_at) s`,
    );
    await checkDates(em, team.id, dates!.starts_at, dates!.ends_at);
    const id = randomUUID();
    await sql(
      em,
      q`insert into cycles (id, team_id, number, name, starts_at, ends_at, created_at)
       values (${id}, ${team.id}, ${number}, ${input.name ?? null}, ${dates!.starts_at}::timestamptz, ${dates!.ends_at}::timestamptz, now())`,
    );

    const changes: Change[] = [cycleChange(team.key, team.id, id, "created")];
    let rolledOver = 0;
    if (input.rollover !== false && previous) {
      const moved = await reassignIssues(
        scope,
        em,
        "cycle",
        q`i.cycle_id = ${previous.id} and i.state_type not in ${raw(FINISHED_STATE_TYPES_SQL)}`,
        { from: { id: previous.id, number: previous.number }, to: { id, number } },
      );
      rolledOver = moved.length;
      changes.push(...moved);
    }
    await recordChanges(em, scope.workspace.id, changes);
    const row = await sqlOne<CycleRow>(em, q`select ${raw(CYCLE_COLUMNS)} from cycles c where c.id = ${id}`);
    return { cycle: cycleOut(row!), rolledOver };
  });
}

/** A cycle of a team the caller may see, locked for the rest of the transaction. */
async function findCycle(scope: WorkspaceScope, em: EntityManager, id: string) {
  const vis = visibleTeamCondition(scope, "t");
  return findById(id, `No cycle "${id}" in this workspace.`, (id) =>
    sqlOne<CycleRow & { team_id: string; team_key: string }>(
      em,
      q`select ${raw(CYCLE_COLUMNS)}, t.id as team_id, t.key as team_key
         from cycles c join teams t on t.id = c.team_id
        where c.id = ${id} and t.workspace_id = ${scope.workspace.id} and ${vis}
        for update of c`,
    ),
  );
}

export async function updateCycle(scope: WorkspaceScope, id: string, input: Schemas["CycleUpdate"]) {
  return scope.em.transactional(async (em) => {
    const cycle = await findCycle(scope, em, id);
    if (input.name === undefined && input.startsAt === undefined && input.endsAt === undefined) {
      return cycleOut(cycle);
    }
    const dates = await sqlOne<{ starts_at: string; ends_at: string }>(
      em,
      q`select coalesce(${input.startsAt ?? null}::timestamptz, starts_at)::text as starts_at, coalesce(${input.endsAt ?? null}::timestamptz, ends_at)::text as ends_at
         from cycles where id = ${cycle.id}`,
    );
    await checkDates(em, cycle.team_id, dates!.starts_at, dates!.ends_at, cycle.id);
    const row = await sqlOne<CycleRow>(
      em,
      q`update cycles c set name = ${input.name === undefined ? cycle.name : input.name}, starts_at = ${dates!.starts_at}::timestamptz, ends_at = ${dates!.ends_at}::timestamptz where c.id = ${cycle.id}
       returning ${raw(CYCLE_COLUMNS)}`,
    );
    await recordChanges(em, scope.workspace.id, [
      cycleChange(cycle.team_key, cycle.team_id, cycle.id, "updated"),
    ]);
    return cycleOut(row!);
  });
}

/** Deletes a cycle; its issues stay and lose it (recorded per issue). The number is not reused. */
export async function deleteCycle(scope: WorkspaceScope, id: string) {
  await scope.em.transactional(async (em) => {
    const cycle = await findCycle(scope, em, id);
    const cleared = await reassignIssues(scope, em, "cycle", q`i.cycle_id = ${cycle.id}`, {
      from: { id: cycle.id, number: cycle.number },
      to: null,
    });
    await em.nativeDelete(Cycle, cycle.id);
    await recordChanges(em, scope.workspace.id, [
      cycleChange(cycle.team_key, cycle.team_id, cycle.id, "deleted"),
      ...cleared,
    ]);
  });
}
