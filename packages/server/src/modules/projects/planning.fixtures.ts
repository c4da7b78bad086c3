import { randomUUID } from "node:crypto";
import type { StateType } from "../../rules/state-types.js";
import type { Db } from "../../test/databases.js";
import type { TestServer } from "../../test/harness.js";
import { DEFAULT_STATES } from "../teams/team.entity.js";

/**
 * Test fixtures for the project, initiative and cycle tests: teams, issues and projects written straight
 * to the database, so these tests can build data that hits every branch of a computed value (old
 * timestamps, chosen states) without depending on other modules' endpoints.
 */
export interface FixtureTeam {
  id: string;
  key: string;
  name: string;
  /** State ids and types by name. */
  states: Record<string, { id: string; type: StateType }>;
}

/** The UTC calendar date `days` from today, `YYYY-MM-DD`. */
export function day(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

export async function addTeam(
  db: Db,
  workspaceId: string,
  key: string,
  memberIds: string[],
  opts: {
    personal?: boolean;
    cyclesEnabled?: boolean;
    cycleLengthWeeks?: number;
    states?: { name: string; type: StateType }[];
  } = {},
): Promise<FixtureTeam> {
  const id = randomUUID();
  const name = `Team ${key}`;
  await db.query(
    `insert into teams (id, workspace_id, key, name, personal, owner_id, cycles_enabled, cycle_length_weeks,
                        estimate_scale, issue_counter, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, 'none', 0, now(), now())`,
    [
      id,
      workspaceId,
      key,
      name,
      opts.personal ?? false,
      opts.personal ? memberIds[0] : null,
      opts.cyclesEnabled ?? true,
      opts.cycleLengthWeeks ?? 2,
    ],
  );
  const states: FixtureTeam["states"] = {};
  for (const [i, s] of (opts.states ?? DEFAULT_STATES).entries()) {
    const stateId = randomUUID();
    states[s.name] = { id: stateId, type: s.type };
    await db.query(
      "insert into workflow_states (id, team_id, name, type, color, position) values ($1, $2, $3, $4, '#5e6ad2', $5)",
      [stateId, id, s.name, s.type, i],
    );
  }
  for (const userId of memberIds) {
    await db.query("insert into team_members (id, team_id, user_id, created_at) values ($1, $2, $3, now())", [
      randomUUID(),
      id,
      userId,
    ]);
  }
  return { id, key, name, states };
}

export interface FixtureIssue {
  id: string;
  number: number;
  identifier: string;
}

/** An issue in `state` (a state name of the team; default Todo), numbered from the team's counter. */
export async function addIssue(
  db: Db,
  workspaceId: string,
  team: FixtureTeam,
  opts: {
    state?: string;
    title?: string;
    projectId?: string | null;
    cycleId?: string | null;
    assigneeId?: string | null;
    parentId?: string | null;
    /** How long ago the issue last changed. */
    updatedDaysAgo?: number;
  } = {},
): Promise<FixtureIssue> {
  const state = team.states[opts.state ?? "Todo"];
  if (!state) throw new Error(`no state ${opts.state} in ${team.key}`);
  const [counter] = await db.query<{ issue_counter: number }>(
    "update teams set issue_counter = issue_counter + 1 where id = $1 returning issue_counter",
    [team.id],
  );
  const number = counter!.issue_counter;
  const id = randomUUID();
  const ago = `${opts.updatedDaysAgo ?? 0} days`;
  await db.query(
    `insert into issues (id, workspace_id, team_id, number, title, priority, state_id, state_type, assignee_id,
                         project_id, cycle_id, parent_id, created_at, updated_at, completed_at)
     values ($1, $2, $3, $4, $5, 0, $6, $7, $8, $9, $10, $11, now() - $12::interval, now() - $12::interval,
             case when $7 = 'completed' then now() end)`,
    [
      id,
      workspaceId,
      team.id,
      number,
      opts.title ?? `Issue ${team.key}-${number}`,
      state.id,
      state.type,
      opts.assigneeId ?? null,
      opts.projectId ?? null,
      opts.cycleId ?? null,
      opts.parentId ?? null,
      ago,
    ],
  );
  return { id, number, identifier: `${team.key}-${number}` };
}

/** Several issues of the project, one per state name given. */
export async function addIssues(
  db: Db,
  workspaceId: string,
  team: FixtureTeam,
  projectId: string,
  states: string[],
): Promise<FixtureIssue[]> {
  const out: FixtureIssue[] = [];
  for (const state of states) out.push(await addIssue(db, workspaceId, team, { state, projectId }));
  return out;
}

/** Moves a row's timestamps into the past (`table` is one of ours, never user input). */
export async function age(
  db: Db,
  table: "projects" | "initiatives" | "issues",
  id: string,
  o: { createdDaysAgo?: number; updatedDaysAgo?: number },
) {
  if (o.createdDaysAgo !== undefined) {
    await db.query(`update ${table} set created_at = now() - $2::interval where id = $1`, [
      id,
      `${o.createdDaysAgo} days`,
    ]);
  }
  if (o.updatedDaysAgo !== undefined) {
    await db.query(`update ${table} set updated_at = now() - $2::interval where id = $1`, [
      id,
      `${o.updatedDaysAgo} days`,
    ]);
  }
}

/** Every row a move may touch, in a stable order: equal snapshots mean nothing changed. */
export async function snapshot(db: Db) {
  const tables = [
    "issues",
    "projects",
    "project_teams",
    "project_members",
    "labels",
    "issue_labels",
    "issue_relations",
    "issue_redirects",
    "status_updates",
    "status_update_issues",
    "document_issues",
    "workflow_rules",
    "initiatives",
    "teams",
    "cycles",
  ];
  const out: Record<string, unknown> = {};
  for (const t of tables) {
    out[t] = (
      await db.query<{ j: unknown }>(`select coalesce(json_agg(x order by x::text), '[]') as j from ${t} x`)
    )[0]!.j;
  }
  out.activity = (await db.query("select count(*)::int as n from activity_events"))[0];
  out.changes = (await db.query("select count(*)::int as n from change_events"))[0];
  return out;
}

/** A fresh workspace with teams ENG and OPS (its admin a member of both) and the admin's client. */
export async function planningWorkspace(srv: TestServer) {
  const { apiKey, workspace, user } = await srv.bootstrap();
  const eng = await addTeam(srv, workspace.id, "ENG", [user.id]);
  const ops = await addTeam(srv, workspace.id, "OPS", [user.id]);
  return { api: srv.client(apiKey.token), token: apiKey.token, ws: workspace, user, eng, ops };
}
