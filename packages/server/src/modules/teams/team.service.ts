import { randomUUID } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import { sql } from "../../db/sql.js";
import { DEFAULT_STATES } from "./team.entity.js";

export interface NewTeam {
  key: string;
  name: string;
  personal?: boolean;
  ownerId?: string | null;
}

/** Inserts a team with the default workflow and its creator as a member. Call inside a transaction. */
export async function insertTeam(em: EntityManager, workspaceId: string, team: NewTeam, creatorId: string) {
  const id = randomUUID();
  await sql(
    em,
    `insert into teams (id, workspace_id, key, name, personal, owner_id, cycles_enabled, cycle_length_weeks,
                        estimate_scale, issue_counter, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, false, 2, 'none', 0, now(), now())`,
    [id, workspaceId, team.key, team.name, team.personal ?? false, team.ownerId ?? null],
  );
  const values = DEFAULT_STATES.map(() => "(?, ?, ?, ?, ?, ?)").join(", ");
  await sql(
    em,
    `insert into workflow_states (id, team_id, name, type, color, position) values ${values}`,
    DEFAULT_STATES.flatMap((s, i) => [randomUUID(), id, s.name, s.type, s.color, i]),
  );
  await sql(em, "insert into team_members (id, team_id, user_id, created_at) values (?, ?, ?, now())", [
    randomUUID(),
    id,
    creatorId,
  ]);
  return { id, key: team.key, name: team.name };
}
