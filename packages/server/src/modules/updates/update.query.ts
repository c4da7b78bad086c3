import type { EntityManager } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { sql, sqlOne } from "../../db/sql.js";
import { q, raw, type SqlFragment } from "../../db/sql-fragment.js";
import { iso } from "../../db/sql-time.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { visibleTeamCondition } from "../../rules/visibility.js";
import { healthSql, percentSql } from "../planning/progress.js";

/** The statements of status updates and of what they are about (update.service.ts decides which). */

export type Health = components["schemas"]["Health"];
export type StatusUpdateOut = components["schemas"]["StatusUpdate"];

/** The one thing a status update is about. `column` is its column in status_updates. */
export interface Subject {
  kind: "team" | "project" | "initiative";
  column: "team_id" | "project_id" | "initiative_id";
  id: string;
  teamKey: string | null;
  createdAt: Date;
}

const TABLE_OF = { team: "teams", project: "projects", initiative: "initiatives" } as const;

/** When the team, project or initiative was created. */
export async function createdAt(em: EntityManager, kind: Subject["kind"], id: string): Promise<Date> {
  const row = await sqlOne<{ created_at: Date }>(
    em,
    q`select created_at from ${raw(TABLE_OF[kind])} where id = ${id}`,
  );
  return row!.created_at;
}

/**
 * A team's health now: its active cycle's issues, from the cycle's start day to its end day, by the rule of
 * project and initiative health (planning/progress.ts); `on_track` without an active cycle.
 */
export async function activeCycleHealth(em: EntityManager, teamId: string): Promise<Health> {
  const row = await sqlOne<{ health: Health }>(
    em,
    q`select ${raw(
      healthSql({
        done: "x.done",
        total: "x.total",
        percent: percentSql("x.done", "x.total"),
        start: "x.start_day",
        target: "x.end_day",
      }),
    )} as health
       from (select (c.starts_at at time zone 'utc')::date as start_day,
                    (c.ends_at at time zone 'utc')::date as end_day,
                    count(i.id) filter (where i.state_type = 'completed')::int as done,
                    count(i.id) filter (where i.state_type <> 'canceled')::int as total
               from cycles c left join issues i on i.cycle_id = c.id and i.archived_at is null
              where c.id = (select id from cycles where team_id = ${teamId} and starts_at <= now() and ends_at > now()
                             order by starts_at desc limit 1)
              group by c.id) x`,
  );
  return row?.health ?? "on_track";
}

const UNKNOWN_USER = { id: "00000000-0000-0000-0000-000000000000", name: "Unknown user" };

/** The status updates about `of` (a subject, newest first), or the one with this id. */
export async function selectUpdates(
  scope: WorkspaceScope,
  em: EntityManager,
  of: Subject | { id: string },
): Promise<StatusUpdateOut[]> {
  const where: SqlFragment = "column" in of ? q`su.${raw(of.column)} = ${of.id}` : q`su.id = ${of.id}`;
  const vis = visibleTeamCondition(scope, "it");
  const rows = await sql<{
    id: string;
    title: string;
    content: string;
    health: Health;
    created_at: Date;
    creator_id: string | null;
    creator_name: string | null;
    issues: { identifier: string; title: string }[];
  }>(
    em,
    q`select su.id, su.title, su.content, su.health, su.created_at, u.id as creator_id, u.name as creator_name,
            coalesce((select json_agg(json_build_object('identifier', it.key || '-' || i.number, 'title', i.title)
                                      order by it.key, i.number)
                        from status_update_issues sui
                        join issues i on i.id = sui.issue_id
                        join teams it on it.id = i.team_id
                       where sui.update_id = su.id and i.workspace_id = su.workspace_id and ${vis}),
                     '[]'::json) as issues
       from status_updates su left join users u on u.id = su.creator_id
      where su.workspace_id = ${scope.workspace.id} and ${where}
      order by su.created_at desc, su.id desc`,
  );
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    content: r.content,
    health: r.health,
    createdAt: iso(r.created_at)!,
    creator: r.creator_id ? { id: r.creator_id, name: r.creator_name ?? "" } : UNKNOWN_USER,
    issues: r.issues,
  }));
}

/** Posts a status update, stamped by the database's clock; its id. */
export async function insertStatusUpdate(
  tx: WorkspaceScope,
  subject: Subject,
  update: { title: string; content: string; health: Health },
): Promise<string> {
  // Stamped to the microsecond (an entity's Date would drop them): the next update's candidates are the
  // issues completed after it.
  const row = await sqlOne<{ id: string }>(
    tx.em,
    q`insert into status_updates (id, workspace_id, ${raw(subject.column)}, title, content, health, creator_id, created_at)
     values (gen_random_uuid(), ${tx.workspace.id}, ${subject.id}, ${update.title}, ${update.content}, ${update.health}, ${tx.caller.userId}, clock_timestamp())
     returning id`,
  );
  return row!.id;
}

/** The subject's newest status update, if any. */
export function latestUpdate(em: EntityManager, subject: Subject) {
  return sqlOne<{ id: string; created_at: Date }>(
    em,
    q`select id, created_at from status_updates where ${raw(subject.column)} = ${subject.id}
      order by created_at desc, id desc limit 1`,
  );
}

/**
 * The issues of the subject the caller sees that were completed after its newest status update (`since`,
 * else after the subject was created), newest first, at most 200. Compared in SQL against the stored
 * timestamp itself: JavaScript dates drop the microseconds.
 */
export async function completedSince(scope: WorkspaceScope, subject: Subject, sinceUpdate: string | null) {
  const since = sinceUpdate
    ? q`(select created_at from status_updates where id = ${sinceUpdate})`
    : q`(select created_at from ${raw(TABLE_OF[subject.kind])} where id = ${subject.id})`;
  const about =
    subject.kind === "team"
      ? q`i.team_id = ${subject.id}`
      : subject.kind === "project"
        ? q`i.project_id = ${subject.id}`
        : q`i.project_id in (select id from projects where initiative_id = ${subject.id})`;
  const vis = visibleTeamCondition(scope, "t");
  const rows = await sql<{
    identifier: string;
    title: string;
    description: string | null;
    completed_at: Date;
    assignee: string | null;
    project: string | null;
    labels: string[];
  }>(
    scope.em,
    q`select t.key || '-' || i.number as identifier, i.title, i.description, i.completed_at,
            u.name as assignee, p.name as project,
            array(select l.name from issue_labels il join labels l on l.id = il.label_id
                   where il.issue_id = i.id order by lower(l.name)) as labels
       from issues i
       join teams t on t.id = i.team_id
       left join users u on u.id = i.assignee_id
       left join projects p on p.id = i.project_id
      where i.workspace_id = ${scope.workspace.id} and ${about} and ${vis}
        and i.state_type = 'completed' and i.completed_at > ${since}
      order by i.completed_at desc, i.id desc
      limit 200`,
  );
  return rows;
}
