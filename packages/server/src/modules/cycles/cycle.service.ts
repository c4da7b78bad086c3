import type { EntityManager } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { type Change, recordChanges } from "../../events/record-change.query.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { Conflict, fieldPath, Invalid } from "../../http/problem.js";
import { reassignIssues } from "../planning/reassign-issues.query.js";
import { resolveTeam } from "../shared/resolve.query.js";
import { Cycle } from "./cycle.entity.js";
import {
  changedCycleDates,
  cycleOut,
  endCycleNow,
  insertCycle,
  lockCycle,
  newCycleDates,
  nextCycleNumber,
  previousCycle,
  rangeFits,
  readCycle,
  writeCycle,
} from "./cycle.query.js";

type Schemas = components["schemas"];

/**
 * Refuses a range that does not end after it starts or that overlaps another cycle of the team (ranges
 * are half-open, so one cycle may start when another ends).
 */
async function checkDates(
  em: EntityManager,
  teamId: string,
  dates: { starts_at: string; ends_at: string },
  exceptId?: string,
) {
  const fits = await rangeFits(em, teamId, dates.starts_at, dates.ends_at, exceptId);
  if (!fits.ordered) {
    throw new Invalid("The cycle must end after it starts.", [
      { path: fieldPath("body", "endsAt"), message: "must be after startsAt" },
    ]);
  }
  if (fits.overlap !== null) {
    throw new Invalid(`The dates overlap cycle ${fits.overlap} of this team.`, [
      { path: fieldPath("body", "startsAt"), message: `overlaps cycle ${fits.overlap}` },
    ]);
  }
}

function cycleChange(teamKey: string, teamId: string, id: string, action: Change["action"]): Change {
  return { entity: "cycle", action, id, teamKey, teamId };
}

/**
 * Starts the team's next cycle (numbered by the team's counter, `nextCycleNumber`), as the contract's
 * createCycle says: without `startsAt` it starts now and a running previous cycle ends now (a previous
 * cycle planned ahead is followed from its end instead); unless `rollover` is false, the unfinished
 * issues of the cycle it follows move into it at once, counted in `rolledOver`.
 */
export async function createCycle(scope: WorkspaceScope, input: Schemas["CycleCreate"]) {
  const team = await resolveTeam(scope, input.team);
  if (!team.cycles_enabled) throw new Conflict("conflict", `Cycles are disabled for team ${team.key}.`);
  return scope.em.transactional(async (em) => {
    const number = await nextCycleNumber(em, team.id);
    const previous = await previousCycle(em, team.id, number);
    const changes: Change[] = [];
    const endedPrevious = input.startsAt === undefined && previous?.running === true;
    if (endedPrevious) {
      await endCycleNow(em, previous.id);
      changes.push(cycleChange(team.key, team.id, previous.id, "updated"));
    }
    const dates = await newCycleDates(em, {
      startsAt: input.startsAt,
      endsAt: input.endsAt,
      weeks: team.cycle_length_weeks,
      previousId: previous?.id ?? null,
    });
    await checkDates(em, team.id, dates);
    const id = await insertCycle(em, {
      teamId: team.id,
      number,
      name: input.name ?? null,
      startsAt: dates.starts_at,
      endsAt: dates.ends_at,
    });
    changes.unshift(cycleChange(team.key, team.id, id, "created"));
    let rolledOver = 0;
    if (input.rollover !== false && previous) {
      const moved = await reassignIssues(
        scope,
        em,
        { field: "cycle", from: previous.id, open: true },
        { from: { id: previous.id, number: previous.number }, to: { id, number } },
      );
      rolledOver = moved.length;
      changes.push(...moved);
    }
    await recordChanges(em, scope.workspace.id, changes);
    return {
      cycle: await readCycle(em, id),
      rolledOver,
      previous: previous ? await readCycle(em, previous.id) : null,
      endedPrevious,
    };
  });
}

export async function updateCycle(scope: WorkspaceScope, id: string, input: Schemas["CycleUpdate"]) {
  return scope.em.transactional(async (em) => {
    const cycle = await lockCycle(scope, em, id);
    if (input.name === undefined && input.startsAt === undefined && input.endsAt === undefined) {
      return cycleOut(cycle);
    }
    const dates = await changedCycleDates(em, cycle.id, input);
    await checkDates(em, cycle.team_id, dates, cycle.id);
    const updated = await writeCycle(em, cycle.id, {
      name: input.name === undefined ? cycle.name : input.name,
      startsAt: dates.starts_at,
      endsAt: dates.ends_at,
    });
    await recordChanges(em, scope.workspace.id, [
      cycleChange(cycle.team_key, cycle.team_id, cycle.id, "updated"),
    ]);
    return updated;
  });
}

/** Deletes a cycle; its issues stay and lose it (recorded per issue). The number is not reused. */
export async function deleteCycle(scope: WorkspaceScope, id: string) {
  await scope.em.transactional(async (em) => {
    const cycle = await lockCycle(scope, em, id);
    const cleared = await reassignIssues(
      scope,
      em,
      { field: "cycle", from: cycle.id },
      { from: { id: cycle.id, number: cycle.number }, to: null },
    );
    await em.nativeDelete(Cycle, cycle.id);
    await recordChanges(em, scope.workspace.id, [
      cycleChange(cycle.team_key, cycle.team_id, cycle.id, "deleted"),
      ...cleared,
    ]);
  });
}
