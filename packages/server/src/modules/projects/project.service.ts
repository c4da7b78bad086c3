import { type EntityManager, LockMode } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { holdInWorkspace } from "../../db/locks.js";
import { type Change, recordChanges } from "../../events/record-change.query.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { Conflict, fieldPath, guardUnique, Invalid, NotFound } from "../../http/problem.js";
import { authorize } from "../../rules/permissions.js";
import { reassignIssues } from "../planning/reassign-issues.query.js";
import {
  findById,
  resolveInitiative,
  resolveTeam,
  resolveUser,
  type TeamRow,
} from "../shared/resolve.query.js";
import { Project, ProjectMember, ProjectTeam } from "./project.entity.js";
import { callerInTeams, findProject, type ProjectOut, projectById } from "./project.query.js";

type ProjectCreate = components["schemas"]["ProjectCreate"];
type ProjectUpdate = components["schemas"]["ProjectUpdate"];

export const PROJECT_NAME_UNIQUE = "projects_workspace_lower_name_unique";

/** Runs `work`, turning the unique index on project names into 409 `conflict`. */
export const guardProjectName = <T>(name: string, where: string, work: () => Promise<T>) =>
  guardUnique(work, {
    [PROJECT_NAME_UNIQUE]: () =>
      new Conflict("conflict", `A project named "${name}" already exists in ${where}.`),
  });

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

// ---- Members ------------------------------------------------------------------------------------

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
