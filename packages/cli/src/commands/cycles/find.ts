import type { Schemas } from "@tracker/sdk";
import { CommandError, type Deps, UsageError } from "../../command.js";

type Cycle = Schemas["Cycle"];

/** A cycle by id, or by number or `current` within --team. */
export async function findCycle(deps: Deps, ref: string, team: string | undefined): Promise<Cycle> {
  if (!team) {
    if (/^[0-9a-f-]{36}$/i.test(ref)) return { id: ref } as Cycle;
    throw new UsageError(`--team is required to name a cycle by number or "current"`);
  }
  const cycles = await deps.tracker.cycles.list(team, deps.call);
  const cycle =
    ref === "current"
      ? cycles.find((c) => c.isActive)
      : cycles.find((c) => c.id === ref || String(c.number) === ref);
  if (!cycle) {
    throw new CommandError(
      ref === "current"
        ? `team ${team} has no active cycle`
        : `team ${team} has no cycle ${ref}; see 'tracker cycles list --team ${team}'`,
    );
  }
  return cycle;
}

/** `2025-03-01` (midnight UTC) or a full ISO timestamp. */
export function instant(flag: string, value: string): string {
  const iso = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00.000Z` : value;
  if (Number.isNaN(Date.parse(iso))) {
    throw new UsageError(
      `invalid value "${value}" for --${flag}; expected a date (2025-03-01) or an ISO time`,
    );
  }
  return new Date(iso).toISOString();
}
