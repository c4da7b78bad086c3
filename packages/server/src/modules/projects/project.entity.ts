import { defineEntity, p } from "@mikro-orm/core";
import { projectStatusValues } from "@tracker/sdk/schema";
import { createdTimestamp, uuidPrimaryKey, workspaceUniqueLowerName } from "../../entity-columns.js";
import { Initiative } from "../initiatives/initiative.entity.js";
import { Team } from "../teams/team.entity.js";
import { User } from "../users/user.entity.js";
import { Workspace } from "../workspaces/workspace.entity.js";

export const Project = defineEntity({
  name: "Project",
  tableName: "projects",
  indexes: [
    { properties: ["initiative"] },
    // The list's default sort (-updated): an ordered scan that stops after the page.
    { properties: ["workspace", "updatedAt"] },
    // Sort by target date, and filters under it (`health=at_risk,off_track&sort=target`): an ordered scan
    // that computes progress only for the projects it reads.
    { properties: ["workspace", "targetDate"] },
    workspaceUniqueLowerName("projects"),
  ],
  properties: {
    id: uuidPrimaryKey(),
    workspace: () => p.manyToOne(Workspace).deleteRule("cascade"),
    name: p.text(),
    description: p.text().nullable(),
    status: p.enum([...projectStatusValues]).default("backlog"),
    initiative: () => p.manyToOne(Initiative).nullable().deleteRule("set null"),
    lead: () => p.manyToOne(User).nullable().deleteRule("set null"),
    startDate: p.date().nullable(),
    targetDate: p.date().nullable(),
    createdAt: createdTimestamp(),
    updatedAt: createdTimestamp(),
    /**
     * The project's team ids, kept equal to its `project_teams` rows by triggers (migration
     * `project_team_ids`); lists decide visibility and show teams from it. Never written here, never loaded.
     */
    teamIds: p.array().columnType("uuid[]").defaultRaw("'{}'").lazy(),
  },
});

export const ProjectTeam = defineEntity({
  name: "ProjectTeam",
  tableName: "project_teams",
  indexes: [{ properties: ["team"] }],
  properties: {
    project: () => p.manyToOne(Project).primary().deleteRule("cascade"),
    team: () => p.manyToOne(Team).primary().deleteRule("cascade"),
  },
});

/** Explicit project members, on top of the members of the project's teams. */
export const ProjectMember = defineEntity({
  name: "ProjectMember",
  tableName: "project_members",
  properties: {
    project: () => p.manyToOne(Project).primary().deleteRule("cascade"),
    user: () => p.manyToOne(User).primary().deleteRule("cascade"),
  },
});

/**
 * Each project's issue counts for progress and health: completed, not canceled, all. Kept by triggers on
 * `issues` (every insert, delete, and change of project or state type, however it is written) and created
 * with the project by a trigger on `projects`; see the migration `project_issue_counts`. Lists then read one
 * row per project instead of counting its issues.
 */
export const ProjectIssueCounts = defineEntity({
  name: "ProjectIssueCounts",
  tableName: "project_issue_counts",
  properties: {
    project: () => p.manyToOne(Project).primary().deleteRule("cascade"),
    done: p.integer().default(0),
    total: p.integer().default(0),
    issueCount: p.integer().default(0),
  },
});
