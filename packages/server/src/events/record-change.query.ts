import type { EntityManager } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { sql } from "../db/sql.js";
import { q, type SqlFragment } from "../db/sql-fragment.js";

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
/** An `issue updated` change from an issue row as SQL returns it (snake_case team columns). */
export function issueRowChange(row: {
  id: string;
  number: number;
  team_key: string;
  team_id: string;
}): Change {
  return {
    entity: "issue",
    action: "updated",
    id: row.id,
    identifier: `${row.team_key}-${row.number}`,
    teamKey: row.team_key,
    teamId: row.team_id,
  };
}

/** An issue's change, from its key (identifier and team). */
export const issueChange = (
  issue: { id: string; identifier: string; teamKey: string; teamId: string },
  action: ChangeAction,
): Change => ({
  entity: "issue",
  action,
  id: issue.id,
  identifier: issue.identifier,
  teamKey: issue.teamKey,
  teamId: issue.teamId,
});

/** Labels a write created by naming them. */
export const labelsCreated = (ids: string[]): Change[] =>
  ids.map((id) => ({ entity: "label", action: "created", id }));

export const CHANGE_CHANNEL = "tracker_changes";
/**
 * The channel that tells every instance someone's access changed outside a workspace's change log:
 * payload `key:<apiKeyId>` when a key is deleted (its open streams close).
 */
export const ACCESS_CHANNEL = "tracker_access";

/**
 * Records changed objects for the live stream (GET /events). Call it with the same EntityManager as the
 * write, inside its transaction: the rows commit or roll back with the change, and NOTIFY is delivered
 * only on commit. Every write of every resource calls this, bulk writes with one Change per object.
 *
 * One statement: it first makes sure the transaction has its transaction id (`pg_current_xact_id()`),
 * then draws the event ids. The event hub relies on that order: an event id that is not visible yet
 * always belongs to a transaction listed as running in any later snapshot (see workspace-feed.ts).
 * {@link changeEventsSql} is the same statement's parts, to record changes within a bigger write.
 */
export async function recordChanges(
  em: EntityManager,
  workspaceId: string,
  changes: Change[],
): Promise<void> {
  if (changes.length === 0) return;
  const rows = changeValues(changes);
  const recorded = changeEventsSql("ins", workspaceId, rows);
  await sql(em, q`with ${recorded.ctes} select ${recorded.notify}`);
}

/**
 * Change rows as a VALUES list, for {@link changeEventsSql}: columns entity, action, entity_id, identifier,
 * team_key, team_id (all text).
 */
export function changeValues(changes: Change[]): SqlFragment {
  return {
    sql: `values ${changes.map(() => "(?::text, ?::text, ?::text, ?::text, ?::text, ?::text)").join(", ")}`,
    params: changes.flatMap((c) => [
      c.entity,
      c.action,
      c.id,
      c.identifier ?? null,
      c.teamKey ?? null,
      c.teamId ?? null,
    ]),
  };
}

/**
 * What {@link recordChanges} runs, in parts, so a write can record its changes in its own statement (one
 * round trip instead of two) when the rows depend on it, e.g. an identifier numbered by a CTE.
 * `rows` is a query yielding the columns of {@link changeValues} (text; `team_id` a uuid's text).
 * Returns `ctes` for the statement's WITH list (the names `<name>_xid` and `<name>`), and `notify`: a
 * select-list expression the statement MUST select, since it sends the NOTIFY (delivered on commit).
 * The transaction id is taken before any event id is drawn, as recordChanges guarantees.
 */
export function changeEventsSql(
  name: string,
  workspaceId: string,
  rows: SqlFragment,
): { ctes: SqlFragment; notify: SqlFragment } {
  return {
    ctes: {
      sql: `${name}_xid as materialized (select pg_current_xact_id() as xid),
          ${name} as (
            insert into change_events (workspace_id, entity, action, entity_id, identifier, team_key, team_id, created_at)
            select ?::uuid, v.entity, v.action, v.entity_id, v.identifier, v.team_key, v.team_id::uuid, now()
              from ${name}_xid cross join (${rows.sql}) as v(entity, action, entity_id, identifier, team_key, team_id)
            returning 1)`,
      params: [workspaceId, ...rows.params],
    },
    notify: {
      sql: `(select pg_notify(?, ?) from (select count(*) from ${name}) n)`,
      params: [CHANGE_CHANNEL, workspaceId],
    },
  };
}

/**
 * Tells every instance, on commit, that an OAuth access token of a grant was revoked: the streams opened
 * with the grant's tokens close (a client whose token still holds reconnects and resumes).
 */
export async function notifyGrantRevoked(em: EntityManager, grantId: string): Promise<void> {
  await sql(em, q`select pg_notify(${ACCESS_CHANNEL}, 'grant:' || md5(${grantId})::uuid::text)`);
}

/** Tells every instance, on commit, that an API key is gone: its open event streams close. */
export async function notifyKeyDeleted(em: EntityManager, keyId: string): Promise<void> {
  await sql(em, q`select pg_notify(${ACCESS_CHANNEL}, ${`key:${keyId}`})`);
}
