import type { EntityManager } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { holdInWorkspace, lockIssues } from "../../db/locks.js";
import { sql, sqlOne } from "../../db/sql.js";
import { q, raw, type SqlFragment } from "../../db/sql-fragment.js";
import { iso } from "../../db/sql-time.js";
import { recordChanges } from "../../events/record-change.query.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { fieldPath, Invalid, NotFound } from "../../http/problem.js";
import { visibleTeamCondition } from "../../rules/visibility.js";
import { queryInitiatives } from "../initiatives/initiative.query.js";
import { findInitiative } from "../initiatives/initiative.service.js";
import { healthSql, percentSql } from "../planning/progress.js";
import { projectById } from "../projects/project.query.js";
import { findProject } from "../projects/project.service.js";
import { resolveIssues, resolveTeam } from "../shared/resolve.query.js";
import { StatusUpdateIssue } from "./status-update.entity.js";

export type Health = components["schemas"]["Health"];

export interface SubjectQuery {
  team?: string;
  project?: string;
  initiative?: string;
}

/** The one thing a status update is about. `column` is its column in status_updates. */
interface Subject {
  kind: "team" | "project" | "initiative";
  column: "team_id" | "project_id" | "initiative_id";
  id: string;
  teamKey: string | null;
  createdAt: Date;
}

/**
 * Exactly one of team, project, initiative (400 otherwise, naming them in `part` of the request), resolved
 * in the caller's workspace.
 */
export async function resolveSubject(
  scope: WorkspaceScope,
  named: SubjectQuery,
  part: "query" | "body" = "query",
): Promise<Subject> {
  const given = (["team", "project", "initiative"] as const).filter(
    (k) => named[k] !== undefined && named[k] !== "",
  );
  if (given.length !== 1) {
    throw new Invalid(
      given.length === 0
        ? "Name the subject: give exactly one of team, project or initiative."
        : `Give exactly one of team, project or initiative, not ${given.join(" and ")}.`,
      (given.length ? given : ["team", "project", "initiative"]).map((k) => ({
        path: fieldPath(part, k),
        message: "exactly one of team, project, initiative is required",
      })),
    );
  }
  const kind = given[0]!;
  if (kind === "team") {
    const team = await resolveTeam(scope, named.team!);
    const row = await sqlOne<{ created_at: Date }>(
      scope.em,
      q`select created_at from teams where id = ${team.id}`,
    );
    return { kind, column: "team_id", id: team.id, teamKey: team.key, createdAt: row!.created_at };
  }
  if (kind === "project") {
    // findProject applies who sees a project (rules/visibility.ts: through its teams).
    const project = await findProject(scope, named.project!);
    const row = await sqlOne<{ created_at: Date }>(
      scope.em,
      q`select created_at from projects where id = ${project.id}`,
    );
    return { kind, column: "project_id", id: project.id, teamKey: null, createdAt: row!.created_at };
  }
  // findInitiative applies who sees an initiative (rules/visibility.ts: guests, through their projects).
  const initiative = await findInitiative(scope, named.initiative!);
  const row = await sqlOne<{ created_at: Date }>(
    scope.em,
    q`select created_at from initiatives where id = ${initiative.id}`,
  );
  return { kind, column: "initiative_id", id: initiative.id, teamKey: null, createdAt: row!.created_at };
}

/**
 * The subject's health now (the contract's `Health` schema). Projects and initiatives: exactly as
 * their lists show it (the projects and initiatives modules compute it). Teams: the active cycle's issues,
 * its start day to its end day, by the same SQL rule; `on_track` without an active cycle.
 */
export async function subjectHealth(scope: WorkspaceScope, subject: Subject): Promise<Health> {
  if (subject.kind === "project") return (await projectById(scope, subject.id)).health;
  if (subject.kind === "initiative") {
    const { initiatives } = await queryInitiatives(scope, { ids: [subject.id] });
    return initiatives[0]?.health ?? "on_track";
  }
  const row = await sqlOne<{ health: Health }>(
    scope.em,
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
               from cycles c left join issues i on i.cycle_id = c.id
              where c.id = (select id from cycles where team_id = ${subject.id} and starts_at <= now() and ends_at > now()
                             order by starts_at desc limit 1)
              group by c.id) x`,
  );
  return row?.health ?? "on_track";
}

export type StatusUpdateOut = components["schemas"]["StatusUpdate"];

const UNKNOWN_USER = { id: "00000000-0000-0000-0000-000000000000", name: "Unknown user" };

async function selectUpdates(
  scope: WorkspaceScope,
  em: EntityManager,
  where: SqlFragment,
): Promise<StatusUpdateOut[]> {
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

export async function listUpdates(scope: WorkspaceScope, named: SubjectQuery): Promise<StatusUpdateOut[]> {
  const subject = await resolveSubject(scope, named);
  return selectUpdates(scope, scope.em, q`su.${raw(subject.column)} = ${subject.id}`);
}

export async function createUpdate(
  scope: WorkspaceScope,
  input: SubjectQuery & { title: string; content: string; issues?: string[] },
): Promise<StatusUpdateOut> {
  const subject = await resolveSubject(scope, input, "body");
  const issues = await resolveIssues(scope, input.issues ?? []);
  const health = await subjectHealth(scope, subject);
  return scope.em.transactional(async (em) => {
    // The subject must still be here once locked: a project or initiative may have been moved to another
    // workspace since it was resolved.
    const table = ({ team: "teams", project: "projects", initiative: "initiatives" } as const)[subject.kind];
    const held = await holdInWorkspace(em, table, scope.workspace.id, [subject.id], "key share");
    if (!held.has(subject.id)) throw new NotFound(`No ${subject.kind} "${subject.id}" in this workspace.`);
    await lockIssues(em, scope.workspace.id, issues, "key share");
    // Stamped by the database's clock to the microsecond (an entity's Date would drop them): the next
    // update's candidates are the issues completed after it.
    const { id } = (await sqlOne<{ id: string }>(
      em,
      q`insert into status_updates (id, workspace_id, ${raw(subject.column)}, title, content, health, creator_id, created_at)
       values (gen_random_uuid(), ${scope.workspace.id}, ${subject.id}, ${input.title}, ${input.content}, ${health}, ${scope.caller.userId}, clock_timestamp())
       returning id`,
    ))!;
    for (const issueId of new Set(issues.map((i) => i.id)))
      em.create(StatusUpdateIssue, { update: id, issue: issueId });
    await em.flush();
    await recordChanges(em, scope.workspace.id, [
      {
        entity: "update",
        action: "created",
        id,
        teamKey: subject.teamKey,
        teamId: subject.kind === "team" ? subject.id : null,
      },
    ]);
    return (await selectUpdates(scope, em, q`su.id = ${id}`))[0]!;
  });
}

export interface UpdateCandidatesOut {
  since: { update: string | null; at: string };
  issues: {
    identifier: string;
    title: string;
    description: string | null;
    completedAt: string;
    assignee: string | null;
    project: string | null;
    labels: string[];
  }[];
}

export async function getUpdateCandidates(
  scope: WorkspaceScope,
  named: SubjectQuery,
): Promise<UpdateCandidatesOut> {
  const subject = await resolveSubject(scope, named);
  const latest = await sqlOne<{ id: string; created_at: Date }>(
    scope.em,
    q`select id, created_at from status_updates where ${raw(subject.column)} = ${subject.id}
      order by created_at desc, id desc limit 1`,
  );
  const at = latest?.created_at ?? subject.createdAt;
  // Compared in SQL against the stored timestamp itself: JavaScript dates drop the microseconds.
  const since = latest
    ? q`(select created_at from status_updates where id = ${latest.id})`
    : q`(select created_at from ${raw(`${subject.kind}s`)} where id = ${subject.id})`;
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
  return {
    since: { update: latest?.id ?? null, at: iso(at)! },
    issues: rows.map((r) => ({
      identifier: r.identifier,
      title: r.title,
      description: r.description,
      completedAt: iso(r.completed_at)!,
      assignee: r.assignee,
      project: r.project,
      labels: r.labels,
    })),
  };
}
