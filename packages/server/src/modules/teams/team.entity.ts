import { defineEntity, type InferEntity, p } from "@mikro-orm/core";
import { estimateScaleValues, workflowTriggerValues } from "@tracker/sdk/schema";
import { createdTimestamp, uuidPrimaryKey } from "../../entity-columns.js";
import { STATE_TYPES, type StateType } from "../../rules/state-types.js";
import { User } from "../users/user.entity.js";
import { Workspace } from "../workspaces/workspace.entity.js";

export const Team = defineEntity({
  name: "Team",
  tableName: "teams",
  uniques: [{ properties: ["workspace", "key"] }],
  indexes: [
    {
      // One personal space per user per workspace, held by the database so concurrent creates cannot both win.
      name: "teams_workspace_personal_owner_unique",
      expression: `create unique index "teams_workspace_personal_owner_unique" on "teams" ("workspace_id", "owner_id") where "personal"`,
    },
  ],
  properties: {
    id: uuidPrimaryKey(),
    workspace: () => p.manyToOne(Workspace).deleteRule("cascade"),
    key: p.text(),
    name: p.text(),
    /** A personal space: seen only by its owner. */
    personal: p.boolean().default(false),
    owner: () => p.manyToOne(User).nullable().deleteRule("set null"),
    cyclesEnabled: p.boolean().default(false),
    cycleLengthWeeks: p.integer().default(2),
    estimateScale: p.enum([...estimateScaleValues]).default("none"),
    /** Last issue number handed out; bumped under the row lock so numbers are never reused or duplicated. */
    issueCounter: p.integer().default(0),
    createdAt: createdTimestamp(),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type ITeam = InferEntity<typeof Team>;

export const WorkflowState = defineEntity({
  name: "WorkflowState",
  tableName: "workflow_states",
  uniques: [{ properties: ["team", "name"] }],
  properties: {
    id: uuidPrimaryKey(),
    team: () => p.manyToOne(Team).deleteRule("cascade"),
    name: p.text(),
    type: p.enum([...STATE_TYPES]),
    color: p.text(),
    position: p.integer(),
  },
});
export type IWorkflowState = InferEntity<typeof WorkflowState>;

/**
 * How many issues not archived each team has in each of its states, kept by triggers on issues
 * (`db/functions/team-state-counts.ts`); a board's unfiltered columns read them (`countIssues`). Plain ids,
 * no foreign keys: the triggers also run while a team's issues are deleted with it, and a row of a team or
 * state that is gone is never read.
 */
export const TeamStateCount = defineEntity({
  name: "TeamStateCount",
  tableName: "team_state_counts",
  properties: {
    teamId: p.uuid().primary(),
    stateId: p.uuid().primary(),
    n: p.integer().default(0),
  },
});

export const TeamMember = defineEntity({
  name: "TeamMember",
  tableName: "team_members",
  uniques: [{ properties: ["team", "user"] }],
  indexes: [{ properties: ["user"] }],
  properties: {
    id: uuidPrimaryKey(),
    team: () => p.manyToOne(Team).deleteRule("cascade"),
    user: () => p.manyToOne(User).deleteRule("cascade"),
    createdAt: createdTimestamp(),
  },
});

/** The workflow every new team starts with (the contract's `createTeam`). */
export const DEFAULT_STATES: { name: string; type: StateType; color: string }[] = [
  { name: "Backlog", type: "backlog", color: "#bec2c8" },
  { name: "Todo", type: "unstarted", color: "#e2e2e2" },
  { name: "In Progress", type: "started", color: "#f2c94c" },
  { name: "In Review", type: "started", color: "#5e6ad2" },
  { name: "Done", type: "completed", color: "#5e6ad2" },
  { name: "Canceled", type: "canceled", color: "#95a2b3" },
];

/** Moves issues to `targetState` when `trigger` fires; unique per (team, trigger, project), project may be null. */
export const WorkflowRule = defineEntity({
  name: "WorkflowRule",
  tableName: "workflow_rules",
  indexes: [
    {
      name: "workflow_rules_team_trigger_project_unique",
      expression: `create unique index "workflow_rules_team_trigger_project_unique" on "workflow_rules" ("team_id", "trigger", "project_id") nulls not distinct`,
    },
  ],
  properties: {
    id: uuidPrimaryKey(),
    team: () => p.manyToOne(Team).deleteRule("cascade"),
    trigger: p.enum([...workflowTriggerValues]),
    /** Plain id (no foreign key to keep teams independent of projects); cleared when the project goes. */
    projectId: p.uuid().nullable(),
    targetState: () => p.manyToOne(WorkflowState).deleteRule("cascade"),
    createdAt: createdTimestamp(),
  },
});
