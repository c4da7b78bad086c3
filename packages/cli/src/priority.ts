import type { Schemas } from "@tracker/sdk";
import { parsePriority } from "@tracker/sdk";
import { UsageError } from "./command.js";

export function parsePriorityFlag(value: string | undefined): Schemas["Priority"] | undefined {
  if (value === undefined) return undefined;
  const priority = parsePriority(value);
  if (priority === undefined) {
    throw new UsageError(
      `invalid value "${value}" for --priority; expected urgent, high, medium, low, none or 0-4`,
    );
  }
  return priority;
}

/** `--estimate 3`, or `none` to clear it. */
export function parseEstimate(value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === "none") return null;
  if (!/^\d+$/.test(value))
    throw new UsageError(`invalid value "${value}" for --estimate; expected a whole number or "none"`);
  return Number(value);
}

/** `--cycle 3`, `current`, or `none` to clear it. */
export function parseCycle(value: string | undefined): number | "current" | null | undefined {
  if (value === undefined) return undefined;
  if (value === "none") return null;
  if (value === "current") return "current";
  if (!/^[1-9]\d*$/.test(value))
    throw new UsageError(
      `invalid value "${value}" for --cycle; expected a cycle number, "current" or "none"`,
    );
  return Number(value);
}
