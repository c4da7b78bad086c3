import type { EntityManager } from "@mikro-orm/postgresql";
import { sql, sqlOne } from "../../db/sql.js";
import { q } from "../../db/sql-fragment.js";
import { type Change, recordChanges } from "../../events/record-change.query.js";
import type { WorkspaceAccess } from "../../http/auth.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { NotFound } from "../../http/problem.js";
import { type ActivityInput, recordActivities, type TeamBrief } from "../activity/activity.query.js";
import { resolveTeam } from "../shared/resolve.query.js";
import { relocateIssues } from "./issue-relocation.query.js";
import { guardProjectName } from "./project.service.js";

/**
 * The statements that carry a project (with its issues, and what hangs off them) to another workspace or
 * team (project-move.service.ts decides where, and who may).
 */

/** recordChanges and recordActivities bind several parameters per row; stay under PostgreSQL's limit. */
const CHUNK = 5000;

async function recordChunked(em: EntityManager, changes: { workspaceId: string; change: Change }[]) {
  const byWorkspace = new Map<string, Change[]>();
  for (const c of changes)
    byWorkspace.set(c.workspaceId, [...(byWorkspace.get(c.workspaceId) ?? []), c.change]);
  for (const [workspaceId, list] of byWorkspace) {
    for (let i = 0; i < list.length; i += CHUNK)
      await recordChanges(em, workspaceId, list.slice(i, i + CHUNK));
  }
}

const publicWorkspace = (w: WorkspaceAccess) => ({ id: w.id, slug: w.slug, name: w.name });

/** One object per id (several dropped links may belong to one document or update). */
function unique<T extends { id: string }>(rows: T[]): T[] {
  return [...new Map(rows.map((r) => [r.id, r])).values()];
}

function tieChange(
  entity: Change["entity"],
  action: Change["action"],
  r: { id: string; team_id?: string | null; team_key?: string | null },
): Change {
  return { entity, action, id: r.id, teamId: r.team_id ?? null, teamKey: r.team_key ?? null };
}

/** A team of the target workspace, by key or id, as its admin sees it (other people's personal spaces are hidden). */
export async function resolveTargetTeam(
  scope: WorkspaceScope,
  em: EntityManager,
  target: WorkspaceAccess,
  ref: string,
): Promise<TeamBrief> {
  const team = await resolveTeam({ ...scope, em, workspace: target }, ref);
  return { id: team.id, key: team.key, name: team.name };
}

export interface WorkspaceMoveReport {
  project: { id: string; name: string; workspace: { id: string; slug: string; name: string } };
  teamKey: string;
  issues: number;
  identifiers: { from: string; to: string }[];
  labelsCreated: string[];
  cleared: {
    initiative: boolean;
    lead: boolean;
    projectMembers: number;
    assignees: number;
    cycles: number;
    relations: number;
    parents: number;
    documentLinks: number;
    updateLinks: number;
    workflowRules: number;
  };
}

/**
 * Moves a project and all its issues into `team` of another workspace, inside the caller's transaction
 * (so an initiative move can move several and still be all or nothing). Workspace-scoped data is
 * remapped: labels by name (created in the target when missing), states by name then type, assignees and
 * project members kept only when members of the target, cycles dropped, the initiative link cleared, and
 * every tie to what stays behind (relations, parent links, document and other updates' issue links,
 * workflow rules naming the project) dropped. The project's own status updates and the issues' comments,
 * links and history come along. The project's name must be free in the target: the unique index decides
 * (409 `conflict`) after the issues have moved, and the whole transaction rolls back with it.
 */
export async function moveProjectToWorkspace(
  em: EntityManager,
  o: {
    projectId: string;
    source: WorkspaceAccess;
    target: WorkspaceAccess;
    team: TeamBrief;
    actorId: string;
  },
): Promise<WorkspaceMoveReport> {
  const { source, target } = o;
  const project = await sqlOne<{
    id: string;
    name: string;
    initiative_id: string | null;
    lead_id: string | null;
  }>(
    em,
    q`select id, name, initiative_id, lead_id from projects where id = ${o.projectId} and workspace_id = ${source.id} for update`,
  );
  if (!project) throw new NotFound("The project is no longer in this workspace.");
  const issueIds = await lockProjectIssues(em, project.id);

  // Labels first: the target gets every label the issues carry, by name, before the links are remapped.
  const labelsCreated = issueIds.length
    ? await sql<{ id: string; name: string }>(
        em,
        q`insert into labels (id, workspace_id, name, color, description, created_at, updated_at)
         select gen_random_uuid(), ${target.id}, x.name, x.color, x.description, now(), now()
           from (select distinct on (lower(l.name)) l.name, l.color, l.description
                   from issue_labels il join labels l on l.id = il.label_id
                  where il.issue_id = any(${issueIds}::uuid[]) and l.workspace_id = ${source.id}
                  order by lower(l.name), l.name) x
         on conflict (workspace_id, lower(name)) do nothing
         returning id, name`,
      )
    : [];
  if (issueIds.length) {
    await sql(
      em,
      q`update issue_labels il set label_id = tl.id
         from labels sl, labels tl
        where il.issue_id = any(${issueIds}::uuid[]) and sl.id = il.label_id and sl.workspace_id = ${source.id}
          and tl.workspace_id = ${target.id} and lower(tl.name) = lower(sl.name)`,
    );
  }

  // Ties to issues that stay behind cannot cross workspaces.
  // Each dropped tie is recorded in the source with the team of the side that stays there.
  type Tie = { id: string; team_id: string | null; team_key: string | null };
  const relations = issueIds.length
    ? await sql<Tie>(
        em,
        q`with gone as (
           delete from issue_relations
            where (issue_id = any(${issueIds}::uuid[])) <> (related_issue_id = any(${issueIds}::uuid[]))
            returning id, case when issue_id = any(${issueIds}::uuid[]) then related_issue_id else issue_id end as stays)
         select gone.id, t.id as team_id, t.key as team_key
           from gone join issues i on i.id = gone.stays join teams t on t.id = i.team_id`,
      )
    : [];
  await sql(
    em,
    q`update issue_relations set workspace_id = ${target.id} where issue_id = any(${issueIds}::uuid[])`,
  );
  const leftChildren = issueIds.length
    ? await sql<{ id: string; number: number; team_id: string; team_key: string; parent: string }>(
        em,
        q`update issues c set parent_id = null, updated_at = now()
           from teams t, issues p, teams pt
          where c.parent_id = any(${issueIds}::uuid[]) and not (c.id = any(${issueIds}::uuid[])) and t.id = c.team_id
            and p.id = c.parent_id and pt.id = p.team_id
          returning c.id, c.number, c.team_id, t.key as team_key, pt.key || '-' || p.number as parent`,
      )
    : [];
  const orphaned = issueIds.length
    ? await sql(
        em,
        q`update issues set parent_id = null
          where id = any(${issueIds}::uuid[]) and parent_id is not null and not (parent_id = any(${issueIds}::uuid[])) returning id`,
      )
    : [];
  const documentLinks = issueIds.length
    ? await sql<{ id: string; team_id: string; team_key: string }>(
        em,
        q`delete from document_issues di using documents d, teams t
          where d.id = di.document_id and t.id = d.team_id and di.issue_id = any(${issueIds}::uuid[])
          returning di.document_id as id, t.id as team_id, t.key as team_key`,
      )
    : [];
  const projectUpdates = await sql<{ id: string }>(
    em,
    q`update status_updates set workspace_id = ${target.id} where project_id = ${project.id} returning id`,
  );
  // The project's updates go with it, but their citations of issues that stay behind cannot.
  if (projectUpdates.length)
    await sql(
      em,
      q`delete from status_update_issues where update_id = any(${projectUpdates.map((u) => u.id)}::uuid[]) and not (issue_id = any(${issueIds}::uuid[]))`,
    );
  const updateLinks = issueIds.length
    ? await sql<{ id: string }>(
        em,
        q`delete from status_update_issues sui using status_updates su
          where su.id = sui.update_id and sui.issue_id = any(${issueIds}::uuid[]) and su.workspace_id <> ${target.id}
          returning sui.update_id as id`,
      )
    : [];
  const workflowRules = await sql<Tie>(
    em,
    q`delete from workflow_rules wr using teams t
      where t.id = wr.team_id and t.workspace_id = ${source.id} and wr.project_id = ${project.id}
      returning wr.id, t.id as team_id, t.key as team_key`,
  );
  await sql(
    em,
    q`update activity_events set workspace_id = ${target.id} where issue_id = any(${issueIds}::uuid[])`,
  );

  const relocated = await relocateIssues(em, {
    issueIds,
    team: o.team,
    sourceWorkspaceId: source.id,
    targetWorkspaceId: target.id,
    actorId: o.actorId,
  });

  // The project arrives last: its name must be free there, and the unique index is the judge.
  const moved = await guardProjectName(project.name, `the workspace "${target.name}"`, () =>
    sqlOne<{ lead_id: string | null }>(
      em,
      q`update projects p
          set workspace_id = ${target.id}, initiative_id = null, updated_at = now(),
              lead_id = case when exists (select 1 from memberships m where m.workspace_id = ${target.id} and m.user_id = p.lead_id)
                             then p.lead_id else null end
        where p.id = ${project.id}
        returning p.lead_id`,
    ),
  );
  await sql(em, q`delete from project_teams where project_id = ${project.id}`);
  await sql(em, q`insert into project_teams (project_id, team_id) values (${project.id}, ${o.team.id})`);
  const members = await sql(
    em,
    q`delete from project_members pm
      where pm.project_id = ${project.id}
        and not exists (select 1 from memberships m where m.workspace_id = ${target.id} and m.user_id = pm.user_id)
      returning pm.user_id`,
  );

  await recordChunked(em, [
    { workspaceId: source.id, change: { entity: "project", action: "deleted", id: project.id } },
    { workspaceId: target.id, change: { entity: "project", action: "created", id: project.id } },
    ...labelsCreated.map((l) => ({
      workspaceId: target.id,
      change: { entity: "label", action: "created", id: l.id } as Change,
    })),
    ...relocated.changes,
    ...relations.map((r) => ({ workspaceId: source.id, change: tieChange("issue_relation", "deleted", r) })),
    ...unique(documentLinks).map((d) => ({
      workspaceId: source.id,
      change: tieChange("document", "updated", d),
    })),
    ...unique(updateLinks).map((u) => ({
      workspaceId: source.id,
      change: { entity: "update", action: "updated", id: u.id } as Change,
    })),
    ...workflowRules.map((r) => ({ workspaceId: source.id, change: tieChange("workflow", "deleted", r) })),
    ...projectUpdates.flatMap((u) => [
      { workspaceId: source.id, change: { entity: "update", action: "deleted", id: u.id } as Change },
      { workspaceId: target.id, change: { entity: "update", action: "created", id: u.id } as Change },
    ]),
    ...leftChildren.map((c) => ({
      workspaceId: source.id,
      change: {
        entity: "issue",
        action: "updated",
        id: c.id,
        identifier: `${c.team_key}-${c.number}`,
        teamKey: c.team_key,
        teamId: c.team_id,
      } as Change,
    })),
  ]);
  await recordActivities(em, [
    ...relocated.activity,
    ...leftChildren.map(
      (c): ActivityInput => ({
        workspaceId: source.id,
        issueId: c.id,
        actorId: o.actorId,
        type: "issue_updated",
        payload: { changes: { parent: { from: c.parent, to: null } } },
      }),
    ),
  ]);

  return {
    project: { id: project.id, name: project.name, workspace: publicWorkspace(target) },
    teamKey: o.team.key,
    issues: relocated.issues.length,
    identifiers: relocated.issues.map((i) => ({ from: i.from.identifier, to: i.to.identifier })),
    labelsCreated: labelsCreated.map((l) => l.name).sort(),
    cleared: {
      initiative: project.initiative_id !== null,
      lead: project.lead_id !== null && moved?.lead_id === null,
      projectMembers: members.length,
      assignees: relocated.issues.filter((i) => i.clearedAssignee).length,
      cycles: relocated.issues.filter((i) => i.droppedCycle).length,
      relations: relations.length,
      parents: leftChildren.length + orphaned.length,
      documentLinks: documentLinks.length,
      updateLinks: updateLinks.length,
      workflowRules: workflowRules.length,
    },
  };
}

/**
 * Re-homes a project onto one team of its own workspace: the team set becomes that team and its issues
 * in other teams move there as by `POST /issues/move` (renumbered with redirects, states by name then
 * type, cycles dropped; the project stays since it now includes the team).
 */
export async function rehomeProject(
  scope: WorkspaceScope,
  em: EntityManager,
  projectId: string,
  team: TeamBrief,
) {
  const project = await sqlOne<{ id: string; name: string }>(
    em,
    q`select id, name from projects where id = ${projectId} and workspace_id = ${scope.workspace.id} for update`,
  );
  if (!project) throw new NotFound("The project is no longer in this workspace.");
  const issueIds = await lockProjectIssues(em, project.id);
  const relocated = await relocateIssues(em, {
    issueIds,
    team,
    sourceWorkspaceId: scope.workspace.id,
    targetWorkspaceId: scope.workspace.id,
    actorId: scope.caller.userId,
  });
  await sql(em, q`delete from project_teams where project_id = ${project.id} and team_id <> ${team.id}`);
  await sql(
    em,
    q`insert into project_teams (project_id, team_id) values (${project.id}, ${team.id}) on conflict do nothing`,
  );
  await sql(em, q`update projects set updated_at = now() where id = ${project.id}`);
  await recordChunked(em, [
    { workspaceId: scope.workspace.id, change: { entity: "project", action: "updated", id: project.id } },
    ...relocated.changes,
  ]);
  await recordActivities(em, relocated.activity);
  return {
    project: { id: project.id, name: project.name, workspace: publicWorkspace(scope.workspace) },
    teamKey: team.key,
    issues: relocated.issues.length,
    identifiers: relocated.issues.map((i) => ({ from: i.from.identifier, to: i.to.identifier })),
    cleared: { cycles: relocated.issues.filter((i) => i.droppedCycle).length },
  };
}

/** The project's issues, locked in id order. */
async function lockProjectIssues(em: EntityManager, projectId: string): Promise<string[]> {
  const rows = await sql<{ id: string }>(
    em,
    q`select id from issues where project_id = ${projectId} order by id for update`,
  );
  return rows.map((r) => r.id);
}
