import type { components } from "@tracker/sdk/schema";

type Schemas = components["schemas"];

/** A teams row with its states aggregated as JSON (see TEAM_COLUMNS in team.service.ts). */
export interface TeamDbRow {
  id: string;
  key: string;
  name: string;
  personal: boolean;
  cycles_enabled: boolean;
  cycle_length_weeks: number;
  estimate_scale: Schemas["EstimateScale"];
  states: Schemas["StateRef"][];
}

export function teamOut(row: TeamDbRow): Schemas["Team"] {
  return {
    id: row.id,
    key: row.key,
    name: row.name,
    personal: row.personal,
    cyclesEnabled: row.cycles_enabled,
    cycleLengthWeeks: row.cycle_length_weeks,
    estimateScale: row.estimate_scale,
    states: row.states.map((s) => ({ id: s.id, name: s.name, type: s.type })),
  };
}

export interface WorkflowRuleDbRow {
  id: string;
  trigger: Schemas["WorkflowTrigger"];
  project_id: string | null;
  target_state_id: string;
}

export function workflowRuleOut(row: WorkflowRuleDbRow): Schemas["WorkflowRule"] {
  return { id: row.id, trigger: row.trigger, projectId: row.project_id, targetStateId: row.target_state_id };
}
