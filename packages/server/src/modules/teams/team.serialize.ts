import type { components } from "@tracker/sdk/schema";
import type { ITeam, IWorkflowState } from "./team.entity.js";

type Schemas = components["schemas"];

/** What the Team shape reads of a team: the entity, or a row selected with these names. */
export type TeamFields = Pick<
  ITeam,
  "id" | "key" | "name" | "personal" | "cyclesEnabled" | "cycleLengthWeeks" | "estimateScale"
>;

/** A team in the contract's shape, with its states in position order. */
export function teamOut(
  team: TeamFields,
  states: Pick<IWorkflowState, "id" | "name" | "type">[],
): Schemas["Team"] {
  return {
    id: team.id,
    key: team.key,
    name: team.name,
    personal: team.personal,
    cyclesEnabled: team.cyclesEnabled,
    cycleLengthWeeks: team.cycleLengthWeeks,
    estimateScale: team.estimateScale,
    states: states.map((s) => ({ id: s.id, name: s.name, type: s.type })),
  };
}
