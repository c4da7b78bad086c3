import { defineEntity, p } from "@mikro-orm/core";
import { healthValues } from "@tracker/sdk/schema";
import { createdTimestamp, uuidPrimaryKey } from "../../entity-columns.js";
import { Initiative } from "../initiatives/initiative.entity.js";
import { Issue } from "../issues/issue.entity.js";
import { Project } from "../projects/project.entity.js";
import { Team } from "../teams/team.entity.js";
import { User } from "../users/user.entity.js";
import { Workspace } from "../workspaces/workspace.entity.js";

/** A status update about exactly one of a team, a project or an initiative (a check constraint holds it). */
export const StatusUpdate = defineEntity({
  name: "StatusUpdate",
  tableName: "status_updates",
  indexes: [
    { properties: ["team", "createdAt"] },
    { properties: ["project", "createdAt"] },
    { properties: ["initiative", "createdAt"] },
  ],
  checks: [
    {
      name: "status_updates_one_subject_check",
      expression: "num_nonnulls(team_id, project_id, initiative_id) = 1",
    },
  ],
  properties: {
    id: uuidPrimaryKey(),
    workspace: () => p.manyToOne(Workspace).deleteRule("cascade"),
    team: () => p.manyToOne(Team).nullable().deleteRule("cascade"),
    project: () => p.manyToOne(Project).nullable().deleteRule("cascade"),
    initiative: () => p.manyToOne(Initiative).nullable().deleteRule("cascade"),
    title: p.text(),
    content: p.text(),
    health: p.enum([...healthValues]),
    creator: () => p.manyToOne(User).nullable().deleteRule("set null"),
    createdAt: createdTimestamp(),
  },
});

export const StatusUpdateIssue = defineEntity({
  name: "StatusUpdateIssue",
  tableName: "status_update_issues",
  properties: {
    update: () => p.manyToOne(StatusUpdate).primary().deleteRule("cascade"),
    issue: () => p.manyToOne(Issue).primary().deleteRule("cascade"),
  },
});
