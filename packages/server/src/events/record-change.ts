import type { EntityManager } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { sql } from "../db/sql.js";

export type ChangeEntity = components["schemas"]["ChangeEntity"];
export type ChangeAction = "created" | "updated" | "deleted";

export interface Change {
  entity: ChangeEntity;
  action: ChangeAction;
  id: string;
  identifier?: string | null;
  teamKey?: string | null;
  /** The team the object belongs to, if any: guests' streams only see their teams' changes. */
  teamId?: string | null;
}

/** The channel every server instance LISTENs on; the payload is the workspace id. */
export const CHANGE_CHANNEL = "tracker_changes";

/**
 * Records changed objects for the live stream (GET /events). Call it with the same EntityManager as the
 * write, inside its transaction: the rows commit or roll back with the change, and NOTIFY is delivered
 * only on commit. Every write of every resource calls this, bulk writes with one Change per object.
 */
export async function recordChanges(
  em: EntityManager,
  workspaceId: string,
  changes: Change[],
): Promise<void> {
  if (changes.length === 0) return;
  const values = changes.map(() => "(?, ?, ?, ?, ?, ?, ?, now())").join(", ");
  await sql(
    em,
    `insert into change_events (workspace_id, entity, action, entity_id, identifier, team_key, team_id, created_at)
     values ${values}`,
    changes.flatMap((c) => [
      workspaceId,
      c.entity,
      c.action,
      c.id,
      c.identifier ?? null,
      c.teamKey ?? null,
      c.teamId ?? null,
    ]),
  );
  await sql(em, "select pg_notify(?, ?)", [CHANGE_CHANNEL, workspaceId]);
}
