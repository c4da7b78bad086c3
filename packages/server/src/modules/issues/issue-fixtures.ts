import { randomUUID } from "node:crypto";
import type { components } from "@tracker/sdk/schema";
import type { StateType } from "../../rules/state-types.js";
import type { Db } from "../../test/databases.js";
import { DEFAULT_STATES } from "../teams/team.entity.js";

/**
 * Test fixtures for the issue, comment, move and digest tests: rows the issue endpoints need but do not
 * create themselves (teams with a chosen workflow, projects, cycles, team membership), written straight
 * to the database so these tests do not depend on other modules' endpoints.
 */
export interface FixtureTeam {
  id: string;
  key: string;
  name: string;
  /** State ids by name. */
  states: Record<string, string>;
}

export async function addTeam(
  db: Db,
  workspaceId: string,
  key: string,
  creatorId: string,
  opts: {
    personal?: boolean;
    estimateScale?: string;
    states?: { name: string; type: StateType; color?: string }[];
  } = {},
): Promise<FixtureTeam> {
  const id = randomUUID();
  const name = `Team ${key}`;
  await db.query(
    `insert into teams (id, workspace_id, key, name, personal, owner_id, cycles_enabled, cycle_length_weeks,
                        estimate_scale, issue_counter, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, true, 2, $7, 0, now(), now())`,
    [
      id,
      workspaceId,
      key,
      name,
      opts.personal ?? false,
      opts.personal ? creatorId : null,
      opts.estimateScale ?? "none",
    ],
  );
  const states: Record<string, string> = {};
  for (const [i, s] of (opts.states ?? DEFAULT_STATES).entries()) {
    const stateId = randomUUID();
    states[s.name] = stateId;
    await db.query(
      "insert into workflow_states (id, team_id, name, type, color, position) values ($1, $2, $3, $4, $5, $6)",
      [stateId, id, s.name, s.type, s.color ?? "#5e6ad2", i],
    );
  }
  await joinTeam(db, id, creatorId);
  return { id, key, name, states };
}

export async function joinTeam(db: Db, teamId: string, userId: string): Promise<void> {
  await db.query("insert into team_members (id, team_id, user_id, created_at) values ($1, $2, $3, now())", [
    randomUUID(),
    teamId,
    userId,
  ]);
}

export async function addProject(
  db: Db,
  workspaceId: string,
  name: string,
  teamIds: string[],
): Promise<string> {
  const id = randomUUID();
  await db.query(
    `insert into projects (id, workspace_id, name, status, created_at, updated_at)
     values ($1, $2, $3, 'started', now(), now())`,
    [id, workspaceId, name],
  );
  for (const teamId of teamIds)
    await db.query("insert into project_teams (project_id, team_id) values ($1, $2)", [id, teamId]);
  return id;
}

/** A cycle of the team; `current` makes it contain now, otherwise it lies in the past. */
export async function addCycle(db: Db, teamId: string, number: number, current: boolean): Promise<string> {
  const id = randomUUID();
  await db.query(
    `insert into cycles (id, team_id, number, name, starts_at, ends_at, created_at)
     values ($1, $2, $3, $4, now() - interval '${current ? 3 : 30} days', now() + interval '${current ? 11 : -16} days', now())`,
    [id, teamId, number, `Cycle ${number}`],
  );
  return id;
}

/**
 * An `IssueDetail`'s own `Issue` fields, in their order: what the detail adds (comments, sub-issues,
 * relations, pull requests, the branch name, attachments) left out, to compare a read with a listed or
 * built `Issue`.
 */
export function issueFieldsOf(detail: components["schemas"]["IssueDetail"]): components["schemas"]["Issue"] {
  const {
    comments: _c,
    subIssues: _s,
    relations: _r,
    pullRequests: _p,
    branchName: _b,
    media: _m,
    ...fields
  } = detail;
  return fields;
}
