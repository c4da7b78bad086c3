import { type OptionSpecs, UsageError } from "../../command.js";

/** The flags naming what a status update is about: exactly one of them. */
export const SUBJECT_OPTIONS = {
  team: { type: "string", short: "t", value: "KEY", description: "A team's updates", complete: "teams" },
  project: { type: "string", short: "p", value: "NAME", description: "A project's updates" },
  initiative: { type: "string", short: "i", value: "NAME", description: "An initiative's updates" },
} as const satisfies OptionSpecs;

export function subject(opts: { team?: string; project?: string; initiative?: string }) {
  const given = (["team", "project", "initiative"] as const).filter((k) => opts[k] !== undefined);
  if (given.length !== 1) throw new UsageError("give exactly one of --team, --project, --initiative");
  const key = given[0]!;
  return { [key]: opts[key]! } as { team?: string; project?: string; initiative?: string };
}
