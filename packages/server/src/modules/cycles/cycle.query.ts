import { randomUUID } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { sql, sqlOne } from "../../db/sql.js";
import { q, raw } from "../../db/sql-fragment.js";
import { iso } from "../../db/sql-time.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { visibleTeamCondition } from "../../rules/visibility.js";
import { findById, resolveTeam } from "../shared/resolve.query.js";

/**
 * The statements of cycles. Dates are compared and computed in SQL on full-precision timestamps (text in,
 * text out): JavaScript dates round microseconds away and would make touching cycles overlap.
 */

type Schemas = components["schemas"];
export type CycleOut = Schemas["Cycle"];

export interface CycleRow {
  id: string;
  number: number;
  name: string | null;
  starts_at: Date | string;
  ends_at: Date | string;
  is_active: boolean;
}

/** `isActive` is computed by the database from its clock: starts_at <= now < ends_at. */
const CYCLE_COLUMNS = raw(
  "c.id, c.number, c.name, c.starts_at, c.ends_at, (c.starts_at <= now() and now() < c.ends_at) as is_active",
);

export const cycleOut = (r: CycleRow): CycleOut => ({
  id: r.id,
  number: r.number,
  name: r.name,
  startsAt: iso(r.starts_at)!,
  endsAt: iso(r.ends_at)!,
  isActive: r.is_active,
});

/** A team's cycles, newest first. */
export async function listCycles(scope: WorkspaceScope, teamRef: string): Promise<CycleOut[]> {
  const team = await resolveTeam(scope, teamRef);
  const rows = await sql<CycleRow>(
    scope.em,
    q`select ${CYCLE_COLUMNS} from cycles c where c.team_id = ${team.id} order by c.number desc`,
  );
  return rows.map(cycleOut);
}

/**
 * Whether the range ends after it starts, and the first other cycle of the team it overlaps (ranges are
 * half-open, so one cycle may start when another ends). Stored times are compared at the contract's
 * precision, the millisecond: a cycle may start at the `endsAt` a client read of another.
 */
export async function rangeFits(
  em: EntityManager,
  teamId: string,
  startsAt: string,
  endsAt: string,
  exceptId?: string,
): Promise<{ ordered: boolean; overlap: number | null }> {
  return (await sqlOne<{ ordered: boolean; overlap: number | null }>(
    em,
    q`select ${startsAt}::timestamptz < ${endsAt}::timestamptz as ordered,
            case when ${startsAt}::timestamptz < ${endsAt}::timestamptz then (
              select number from cycles
               where team_id = ${teamId} and id <> coalesce(${exceptId ?? null}::uuid, '00000000-0000-0000-0000-000000000000'::uuid)
                 and tstzrange(date_trunc('milliseconds', starts_at), date_trunc('milliseconds', ends_at))
                     && tstzrange(${startsAt}::timestamptz, ${endsAt}::timestamptz)
               order by number limit 1) end as overlap`,
  ))!;
}

/**
 * The team's next cycle number, from its counter row, bumped by an upsert that holds its lock until
 * commit: concurrent creates are serialised (each then sees the other's cycle when it picks the previous
 * one and checks overlaps) and a deleted cycle's number is never handed out again.
 */
export async function nextCycleNumber(em: EntityManager, teamId: string): Promise<number> {
  const counter = await sqlOne<{ last_number: number }>(
    em,
    q`insert into cycle_counters (team_id, last_number)
     values (${teamId}, (select coalesce(max(number), 0) + 1 from cycles where team_id = ${teamId}))
     on conflict (team_id) do update
       set last_number = greatest(cycle_counters.last_number,
                                  (select coalesce(max(number), 0) from cycles where team_id = excluded.team_id)) + 1
     returning last_number`,
  );
  return counter!.last_number;
}

/**
 * The team's latest cycle before `number`, and whether it is running or has ended (by the transaction's
 * clock), locked: a create may end it.
 */
export function previousCycle(em: EntityManager, teamId: string, number: number) {
  return sqlOne<{ id: string; number: number; running: boolean }>(
    em,
    q`select id, number, (starts_at <= now() and now() < ends_at) as running from cycles
       where team_id = ${teamId} and number < ${number} order by number desc limit 1
       for update`,
  );
}

/**
 * The transaction's clock to the millisecond: the precision of the contract's date-times, so a client that
 * starts a cycle at the `endsAt` it read meets the stored end exactly (and, not after now, a cycle ended
 * or started at it has ended or is running in the same transaction).
 */
const NOW_MS = raw("date_trunc('milliseconds', now())");

/** Ends a running cycle at the transaction's clock (the next cycle starts then: ranges are half-open). */
export async function endCycleNow(em: EntityManager, id: string): Promise<void> {
  await sql(em, q`update cycles set ends_at = ${NOW_MS} where id = ${id}`);
}

/**
 * A new cycle's dates as text: from `startsAt`, else now or the previous cycle's end, whichever is later;
 * to `endsAt`, else `weeks` after the start.
 */
export async function newCycleDates(
  em: EntityManager,
  input: { startsAt?: string; endsAt?: string; weeks: number; previousId: string | null },
): Promise<{ starts_at: string; ends_at: string }> {
  return (await sqlOne<{ starts_at: string; ends_at: string }>(
    em,
    q`select s.starts_at::text as starts_at,
            coalesce(${input.endsAt ?? null}::timestamptz, s.starts_at + make_interval(weeks => ${input.weeks}))::text as ends_at
       from (select coalesce(${input.startsAt ?? null}::timestamptz, greatest(${NOW_MS}, (select ends_at from cycles where id = ${input.previousId}))) as starts_at) s`,
  ))!;
}

/** Inserts a cycle; its id. */
export async function insertCycle(
  em: EntityManager,
  c: { teamId: string; number: number; name: string | null; startsAt: string; endsAt: string },
): Promise<string> {
  const id = randomUUID();
  await sql(
    em,
    q`insert into cycles (id, team_id, number, name, starts_at, ends_at, created_at)
     values (${id}, ${c.teamId}, ${c.number}, ${c.name}, ${c.startsAt}::timestamptz, ${c.endsAt}::timestamptz, now())`,
  );
  return id;
}

export async function readCycle(em: EntityManager, id: string): Promise<CycleOut> {
  return cycleOut((await sqlOne<CycleRow>(em, q`select ${CYCLE_COLUMNS} from cycles c where c.id = ${id}`))!);
}

/** A cycle of a team the caller may see, locked for the rest of the transaction. */
export async function lockCycle(scope: WorkspaceScope, em: EntityManager, id: string) {
  const vis = visibleTeamCondition(scope, "t");
  return findById(id, `No cycle "${id}" in this workspace.`, (id) =>
    sqlOne<CycleRow & { team_id: string; team_key: string }>(
      em,
      q`select ${CYCLE_COLUMNS}, t.id as team_id, t.key as team_key
         from cycles c join teams t on t.id = c.team_id
        where c.id = ${id} and t.workspace_id = ${scope.workspace.id} and ${vis}
        for update of c`,
    ),
  );
}

/** A cycle's dates after a change: the given ones, else its own, as text. */
export async function changedCycleDates(
  em: EntityManager,
  id: string,
  input: { startsAt?: string; endsAt?: string },
): Promise<{ starts_at: string; ends_at: string }> {
  return (await sqlOne<{ starts_at: string; ends_at: string }>(
    em,
    q`select coalesce(${input.startsAt ?? null}::timestamptz, starts_at)::text as starts_at, coalesce(${input.endsAt ?? null}::timestamptz, ends_at)::text as ends_at
       from cycles where id = ${id}`,
  ))!;
}

export async function writeCycle(
  em: EntityManager,
  id: string,
  c: { name: string | null; startsAt: string; endsAt: string },
): Promise<CycleOut> {
  const row = await sqlOne<CycleRow>(
    em,
    q`update cycles c set name = ${c.name}, starts_at = ${c.startsAt}::timestamptz, ends_at = ${c.endsAt}::timestamptz where c.id = ${id}
     returning ${CYCLE_COLUMNS}`,
  );
  return cycleOut(row!);
}
