import { type EntityManager, LockMode } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { holdInWorkspace } from "../../db/locks.js";
import { sql, sqlOne } from "../../db/sql.js";
import { q, raw } from "../../db/sql-fragment.js";
import { dateSql } from "../../db/sql-time.js";
import { type Change, recordChanges } from "../../events/record-change.query.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { Conflict, fieldPath, guardUnique, Invalid, NotFound } from "../../http/problem.js";
import { authorize } from "../../rules/permissions.js";
import { visibleProjectCondition } from "../../rules/visibility.js";
import { reassignIssues } from "../planning/reassign-issues.query.js";
import {
  findById,
  isUuid,
  resolveInitiative,
  resolveTeam,
  resolveUser,
  type TeamRow,
} from "../shared/resolve.query.js";
import { Project, ProjectMember, ProjectTeam } from "./project.entity.js";
import { type ProjectOut, projectById } from "./project.query.js";

type ProjectCreate = components["schemas"]["ProjectCreate"];
type ProjectUpdate = components["schemas"]["ProjectUpdate"];

export const PROJECT_NAME_UNIQUE = "projects_workspace_lower_name_unique";

/** Runs `work`, turning the unique index on project names into 409 `conflict`. */
export const guardProjectName = <T>(name: string, where: string, work: () => Promise<T>) =>
  guardUnique(work, {
    [PROJECT_NAME_UNIQUE]: () =>
      new Conflict("conflict", `A project named "${name}" already exists in ${where}.`),
  });

export interface ProjectRecord {
  id: string;
  name: string;
  status: string;
  lead_id: string | null;
  start_date: string | null;
  target_date: string | null;
  /** True when one of its teams is a personal space. */
  personal: boolean;
}

/** A project the caller may see, by id or name (case-insensitive); anything else is 404. */
export async function findProject(scope: WorkspaceScope, ref: string, em = scope.em): Promise<ProjectRecord> {
  const vis = visibleProjectCondition(scope, "p");
  const row = await sqlOne<ProjectRecord>(
    em,
    q`select p.id, p.name, p.status, p.lead_id, ${raw(dateSql("p.start_date"))} as start_date,
            ${raw(dateSql("p.target_date"))} as target_date,
            exists (select 1 from project_teams xpt join teams xt on xt.id = xpt.team_id
                     where xpt.project_id = p.id and xt.personal) as personal
       from projects p
      where p.workspace_id = ${scope.workspace.id} and ${isUuid(ref) ? q`p.id = ${ref}` : q`lower(p.name) = lower(${ref})`} and ${vis}`,
  );
  if (!row) throw new NotFound(`No project "${ref}" in this workspace.`);
  return row;
}

function checkDates(start: string | null | undefined, target: string | null | undefined) {
  if (start && target && start > target) {
    throw new Invalid("startDate is after targetDate.", [
      { path: fieldPath("body", "startDate"), message: "must be on or before targetDate" },
    ]);
  }
}

async function resolveTeams(scope: WorkspaceScope, refs: string[]): Promise<TeamRow[]> {
  const teams: TeamRow[] = [];
  for (const ref of refs) {
    const team = await resolveTeam(scope, ref);
    if (!teams.some((t) => t.id === team.id)) teams.push(team);
  }
  return teams;
}

export async function createProject(scope: WorkspaceScope, input: ProjectCreate): Promise<ProjectOut> {
  // Guests reach only the teams they belong to, so resolveTeam already limits them to those.
  const teams = await resolveTeams(scope, input.teams);
  const lead = input.lead ? await resolveUser(scope, input.lead) : null;
  const initiative = input.initiative ? await resolveInitiative(scope, input.initiative) : null;
  checkDates(input.startDate, input.targetDate);
  const id = await scope.em.transactional(async (em) => {
    const project = em.create(Project, {
      workspace: scope.workspace.id,
      name: input.name,
      description: input.description ?? null,
      status: input.status ?? "backlog",
      initiative: initiative?.id ?? null,
      lead: lead?.id ?? null,
      startDate: input.startDate ?? null,
      targetDate: input.targetDate ?? null,
    });
    for (const team of teams) em.create(ProjectTeam, { project, team: team.id });
    await guardProjectName(input.name, "this workspace", () => em.flush());
    await recordChanges(em, scope.workspace.id, [{ entity: "project", action: "created", id: project.id }]);
    return project.id;
  });
  return projectById(scope, id);
}

export async function updateProject(
  scope: WorkspaceScope,
  ref: string,
  input: ProjectUpdate,
): Promise<ProjectOut> {
  const project = await findProject(scope, ref);
  const teams = input.teams ? await resolveTeams(scope, input.teams) : undefined;
  const lead = typeof input.lead === "string" ? await resolveUser(scope, input.lead) : input.lead;
  const initiative =
    typeof input.initiative === "string"
      ? await resolveInitiative(scope, input.initiative)
      : input.initiative;
  checkDates(
    input.startDate === undefined ? project.start_date : input.startDate,
    input.targetDate === undefined ? project.target_date : input.targetDate,
  );

  const fields = {
    name: input.name,
    description: input.description,
    status: input.status,
    lead: lead === undefined ? undefined : (lead?.id ?? null),
    initiative: initiative === undefined ? undefined : (initiative?.id ?? null),
    startDate: input.startDate,
    targetDate: input.targetDate,
  };
  if (Object.values(fields).every((v) => v === undefined) && !teams) return projectById(scope, project.id);

  await scope.em.transactional(async (em) => {
    // The row's lock, and a check that it is still here: a move to another workspace may have taken it
    // since it was resolved, and its teams, lead and initiative named above are this workspace's.
    const row = await em.findOne(
      Project,
      { id: project.id, workspace: scope.workspace.id },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!row) throw new NotFound(`No project "${ref}" in this workspace.`);
    em.assign(row, { ...fields, updatedAt: new Date() }, { ignoreUndefined: true });
    await guardProjectName(input.name ?? project.name, "this workspace", () => em.flush());
    const changes: Change[] = [{ entity: "project", action: "updated", id: project.id }];
    if (teams) {
      const teamIds = teams.map((t) => t.id);
      await em.nativeDelete(ProjectTeam, { project: project.id, team: { $nin: teamIds } });
      await em
        .createQueryBuilder(ProjectTeam)
        .insert(teamIds.map((team) => ({ project: project.id, team })))
        .onConflict()
        .ignore();
      // Issues of a team taken off the project lose the project (contract), recorded per issue.
      changes.push(
        ...(await reassignIssues(
          scope,
          em,
          { field: "project", from: project.id, outsideTeams: teamIds },
          { from: { id: project.id, name: project.name }, to: null },
        )),
      );
    }
    await recordChanges(em, scope.workspace.id, changes);
  });
  return projectById(scope, project.id);
}

export async function projectPageData(scope: WorkspaceScope, ref: string) {
  const project = await findProject(scope, ref);
  const row = await sqlOne<{ description: string | null }>(
    scope.em,
    q`select description from projects where id = ${project.id}`,
  );
  return { project: { id: project.id, description: row?.description ?? null } };
}

// ---- Members ------------------------------------------------------------------------------------

export async function listProjectMembers(scope: WorkspaceScope, ref: string) {
  const project = await findProject(scope, ref);
  return sql<{ id: string; name: string; email: string }>(
    scope.em,
    q`select u.id, u.name, u.email
       from project_members pm join users u on u.id = pm.user_id
      where pm.project_id = ${project.id}
      order by lower(u.name), u.id`,
  );
}

/** Whether the caller belongs to one of the project's teams (`project.manageMembers`). */
async function callerInTeams(scope: WorkspaceScope, project: ProjectRecord): Promise<boolean> {
  const inTeam = await sqlOne(
    scope.em,
    q`select 1 from project_teams pt join team_members tm on tm.team_id = pt.team_id
      where pt.project_id = ${project.id} and tm.user_id = ${scope.caller.userId}`,
  );
  return inTeam !== undefined;
}

/**
 * Key-share-locks a resolved project and checks it is still in the workspace: a move to another workspace
 * may have taken it since it was resolved, and what the write attaches to it (a member of this workspace)
 * must not follow it there.
 */
async function holdProject(scope: WorkspaceScope, em: EntityManager, id: string, ref: string) {
  const held = await holdInWorkspace(em, "projects", scope.workspace.id, [id], "key share");
  if (!held.has(id)) throw new NotFound(`No project "${ref}" in this workspace.`);
}

export async function addProjectMember(scope: WorkspaceScope, ref: string, userRef: string) {
  const project = await findProject(scope, ref);
  if (project.personal) {
    throw new Conflict("personal_space", "Projects in a personal space cannot have members.");
  }
  authorize(scope, "project.manageMembers", {
    leadId: project.lead_id,
    callerInTeams: await callerInTeams(scope, project),
  });
  const user = await resolveUser(scope, userRef);
  await scope.em.transactional(async (em) => {
    await holdProject(scope, em, project.id, ref);
    await em
      .createQueryBuilder(ProjectMember)
      .insert({ project: project.id, user: user.id })
      .onConflict()
      .ignore();
    await recordChanges(em, scope.workspace.id, [{ entity: "project", action: "updated", id: project.id }]);
  });
}

export async function removeProjectMember(scope: WorkspaceScope, ref: string, userId: string) {
  const project = await findProject(scope, ref);
  authorize(scope, "project.removeMember", {
    userId,
    leadId: project.lead_id,
    callerInTeams: await callerInTeams(scope, project),
  });
  await scope.em.transactional(async (em) => {
    await findById(
      userId,
      `User ${userId} is not a direct member of ${project.name}.`,
      async (id) => (await em.nativeDelete(ProjectMember, { project: project.id, user: id })) || undefined,
    );
    await recordChanges(em, scope.workspace.id, [{ entity: "project", action: "updated", id: project.id }]);
  });
}
