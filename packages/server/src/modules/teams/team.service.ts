import { randomUUID } from "node:crypto";
import { type EntityManager, LockMode } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { holdInWorkspace } from "../../db/locks.js";
import { type Change, recordChanges } from "../../events/record-change.query.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { Conflict, fieldPath, guardUnique, Invalid, NotFound } from "../../http/problem.js";
import { authorize } from "../../rules/permissions.js";
import { findById, isUuid, resolveTeam, resolveUser, type TeamRow } from "../shared/resolve.query.js";
import { DEFAULT_STATES, Team, TeamMember, WorkflowRule, WorkflowState } from "./team.entity.js";
import {
  deleteSoleProjects,
  lockTeamProjects,
  projectIncludesTeam,
  readTeam,
  redirectTeamIdentifiers,
  teamIssues,
  upsertWorkflowRule,
} from "./team.query.js";
import { teamOut } from "./team.serialize.js";

type Schemas = components["schemas"];
type EstimateScale = Schemas["EstimateScale"];
type WorkflowTrigger = Schemas["WorkflowTrigger"];

export interface NewTeam {
  key: string;
  name: string;
  personal?: boolean;
  ownerId?: string | null;
  cyclesEnabled?: boolean;
  cycleLengthWeeks?: number;
  estimateScale?: EstimateScale;
}

const KEY_UNIQUE = "teams_workspace_id_key_unique";
const PERSONAL_UNIQUE = "teams_workspace_personal_owner_unique";
/** recordChanges binds 7 parameters per change; stay well under PostgreSQL's 65535. */
const CHANGE_CHUNK = 5000;

/**
 * Turns the unique violations that guard team keys and personal spaces into the contract's 409s. The
 * database decides, so two concurrent creates of one key cannot both win and the loser never sees a 500.
 */
const guardTeamUniques = <T>(key: string, work: () => Promise<T>) =>
  guardUnique(work, {
    [KEY_UNIQUE]: () =>
      new Conflict("team_key_taken", `The team key "${key}" is already used in this workspace.`),
    [PERSONAL_UNIQUE]: () =>
      new Conflict("personal_space", "You already have a personal space in this workspace."),
  });

async function recordInChunks(em: EntityManager, workspaceId: string, changes: Change[]) {
  for (let i = 0; i < changes.length; i += CHANGE_CHUNK) {
    await recordChanges(em, workspaceId, changes.slice(i, i + CHANGE_CHUNK));
  }
}

/**
 * Inserts a team with the default workflow and its creator as a member, and records the change. Call
 * inside a transaction. A taken key is 409 `team_key_taken`; a second personal space 409 `personal_space`.
 */
export async function insertTeam(em: EntityManager, workspaceId: string, input: NewTeam, creatorId: string) {
  return (await insertTeamWithStates(em, workspaceId, input, creatorId)).team;
}

async function insertTeamWithStates(
  em: EntityManager,
  workspaceId: string,
  input: NewTeam,
  creatorId: string,
) {
  const team = em.create(Team, {
    workspace: workspaceId,
    key: input.key,
    name: input.name,
    personal: input.personal ?? false,
    owner: input.ownerId ?? null,
    cyclesEnabled: input.cyclesEnabled ?? false,
    cycleLengthWeeks: input.cycleLengthWeeks ?? 2,
    estimateScale: input.estimateScale ?? "none",
    issueCounter: 0,
  });
  const states = DEFAULT_STATES.map((s, position) => em.create(WorkflowState, { team, ...s, position }));
  em.create(TeamMember, { team, user: creatorId });
  await guardTeamUniques(input.key, () => em.flush());
  await recordChanges(em, workspaceId, [
    { entity: "team", action: "created", id: team.id, teamKey: team.key, teamId: team.id },
    { entity: "member", action: "created", id: creatorId, teamKey: team.key, teamId: team.id },
  ]);
  return { team, states };
}

export async function createTeam(scope: WorkspaceScope, input: components["schemas"]["TeamCreate"]) {
  const personal = input.personal ?? false;
  const name = input.name.trim();
  if (!name)
    throw new Invalid("A team needs a name.", [
      { path: fieldPath("body", "name"), message: "must not be blank" },
    ]);
  return scope.em.transactional(async (em) => {
    const { team, states } = await insertTeamWithStates(
      em,
      scope.workspace.id,
      {
        key: input.key,
        name,
        personal,
        ownerId: personal ? scope.caller.userId : null,
        cyclesEnabled: input.cyclesEnabled,
        cycleLengthWeeks: input.cycleLengthWeeks,
        estimateScale: input.estimateScale,
      },
      scope.caller.userId,
    );
    return teamOut(team, states);
  });
}

/** Locks a team row for the rest of the transaction; issue creation takes the same lock to number issues. */
async function lockTeam(em: EntityManager, teamId: string) {
  const team = await em.findOne(Team, teamId, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!team) throw new NotFound("The team is gone.");
  return team;
}

export async function updateTeam(
  scope: WorkspaceScope,
  ref: string,
  input: components["schemas"]["TeamUpdate"],
) {
  const team = await resolveTeam(scope, ref);
  authorize(scope, "team.update", { personal: team.personal, ownerId: team.owner_id });
  const name = input.name?.trim();
  if (name === "")
    throw new Invalid("A team needs a name.", [
      { path: fieldPath("body", "name"), message: "must not be blank" },
    ]);
  const fields = {
    name,
    key: input.key,
    cyclesEnabled: input.cyclesEnabled,
    cycleLengthWeeks: input.cycleLengthWeeks,
    estimateScale: input.estimateScale,
  };
  const ws = scope.workspace.id;
  if (Object.values(fields).some((v) => v !== undefined))
    await scope.em.transactional(async (em) => {
      const current = await lockTeam(em, team.id);
      const oldKey = current.key;
      em.assign(current, { ...fields, updatedAt: new Date() }, { ignoreUndefined: true });
      const newKey = current.key;
      await guardTeamUniques(newKey, () => em.flush());
      const changes: Change[] = [
        { entity: "team", action: "updated", id: team.id, teamKey: newKey, teamId: team.id },
      ];
      if (newKey !== oldKey) {
        // Old identifiers keep resolving. A newer redirect for the same old identifier replaces an older one:
        // the old key's current issue is what that identifier showed until now.
        await redirectTeamIdentifiers(em, ws, team.id, oldKey);
        const issues = await teamIssues(em, team.id);
        for (const i of issues) {
          changes.push({
            entity: "issue",
            action: "updated",
            id: i.id,
            identifier: `${newKey}-${i.number}`,
            teamKey: newKey,
            teamId: team.id,
          });
        }
      }
      await recordInChunks(em, ws, changes);
    });
  // The contract's updateTeam answers the team as it is now.
  const updated = await readTeam(scope.em, team.id);
  if (!updated) throw new NotFound("The team is gone.");
  return updated;
}

export async function deleteTeam(scope: WorkspaceScope, ref: string, deleteProjects: boolean) {
  const team = await resolveTeam(scope, ref);
  if (team.personal) throw new Conflict("personal_space", "A personal space cannot be deleted.");
  const ws = scope.workspace.id;
  return scope.em.transactional(async (em) => {
    await lockTeam(em, team.id);
    // Lock the team's projects too, so a concurrent change of their teams cannot make a "sole" project shared.
    const projects = await lockTeamProjects(em, team.id);
    const sole = projects.filter((p) => p.sole).map((p) => p.id);
    const shared = projects.filter((p) => !p.sole).map((p) => p.id);
    const issues = await teamIssues(em, team.id);
    const changes: Change[] = [];
    if (deleteProjects && sole.length) {
      await deleteSoleProjects(em, sole);
      for (const id of sole) changes.push({ entity: "project", action: "deleted", id });
    }
    const detached = deleteProjects ? shared : [...sole, ...shared];
    for (const id of detached) changes.push({ entity: "project", action: "updated", id });
    // Cascades take the issues (with comments, links, relations, redirects), cycles, workflow states and
    // rules, documents, team status updates, memberships and project links; saved views lose the team.
    await em.nativeDelete(Team, team.id);
    for (const i of issues) {
      changes.push({
        entity: "issue",
        action: "deleted",
        id: i.id,
        identifier: `${team.key}-${i.number}`,
        teamKey: team.key,
        teamId: team.id,
      });
    }
    changes.push({ entity: "team", action: "deleted", id: team.id, teamKey: team.key, teamId: team.id });
    await recordInChunks(em, ws, changes);
    return {
      deleted: true as const,
      deletedProjects: deleteProjects ? sole.length : 0,
      detachedProjects: deleteProjects ? 0 : sole.length,
    };
  });
}

async function isTeamMember(em: EntityManager, teamId: string, userId: string) {
  return (await em.count(TeamMember, { team: teamId, user: userId })) > 0;
}

/** Who may manage the team's members, workflow states and workflow rules (`team.manage`). */
export async function authorizeTeamManager(scope: WorkspaceScope, team: TeamRow) {
  authorize(scope, "team.manage", {
    callerInTeam: await isTeamMember(scope.em, team.id, scope.caller.userId),
  });
}

async function addToTeam(em: EntityManager, ws: string, team: TeamRow, userId: string) {
  // A query builder insert runs no onCreate hooks: id and createdAt are given here.
  const inserted = await em
    .createQueryBuilder(TeamMember)
    .insert({ id: randomUUID(), team: team.id, user: userId, createdAt: new Date() })
    .onConflict(["team", "user"])
    .ignore()
    .execute("run");
  if (inserted.affectedRows > 0) {
    await recordChanges(em, ws, [
      { entity: "member", action: "created", id: userId, teamKey: team.key, teamId: team.id },
    ]);
  }
}

/** Joins a team the caller sees. Guests see only their own teams, so they cannot join others (404). */
export async function joinTeam(scope: WorkspaceScope, ref: string) {
  const team = await resolveTeam(scope, ref);
  await scope.em.transactional((em) => addToTeam(em, scope.workspace.id, team, scope.caller.userId));
}

export async function addTeamMember(scope: WorkspaceScope, ref: string, userRef: string) {
  const team = await resolveTeam(scope, ref);
  await authorizeTeamManager(scope, team);
  const user = await resolveUser(scope, userRef);
  if (team.personal && user.id !== team.owner_id) {
    throw new Conflict("personal_space", "A personal space takes no other members.");
  }
  await scope.em.transactional((em) => addToTeam(em, scope.workspace.id, team, user.id));
}

export async function removeTeamMember(scope: WorkspaceScope, ref: string, userRef: string) {
  const team = await resolveTeam(scope, ref);
  const userId = userRef === "me" ? scope.caller.userId : userRef;
  authorize(scope, "team.removeMember", { userId });
  if (team.personal && userId === team.owner_id) {
    throw new Conflict("personal_space", "The owner cannot leave their personal space.");
  }
  await scope.em.transactional(async (em) => {
    await findById(
      userId,
      `No member "${userRef}" in ${team.key}.`,
      async (id) => (await em.nativeDelete(TeamMember, { team: team.id, user: id })) || undefined,
    );
    await recordChanges(em, scope.workspace.id, [
      { entity: "member", action: "deleted", id: userId, teamKey: team.key, teamId: team.id },
    ]);
  });
}

export async function upsertWorkflow(
  scope: WorkspaceScope,
  ref: string,
  input: { trigger: WorkflowTrigger; targetStateId: string; projectId?: string | null },
) {
  const team = await resolveTeam(scope, ref);
  await authorizeTeamManager(scope, team);
  const state =
    isUuid(input.targetStateId) &&
    (await scope.em.count(WorkflowState, { id: input.targetStateId, team: team.id })) > 0;
  if (!state) {
    throw new Invalid(`targetStateId is not a workflow state of ${team.key}.`, [
      { path: fieldPath("body", "targetStateId"), message: `not a state of ${team.key}` },
    ]);
  }
  const projectId = input.projectId ?? null;
  return scope.em.transactional(async (em) => {
    if (projectId !== null) {
      // Share-locked while still in this workspace, then checked in the next statement: a concurrent
      // change of its teams or a move to another workspace commits first, or waits for this rule.
      const held =
        isUuid(projectId) &&
        (await holdInWorkspace(em, "projects", scope.workspace.id, [projectId], "share")).has(projectId);
      const project = held && (await projectIncludesTeam(em, projectId, team.id));
      if (!project) {
        throw new Invalid(`projectId is not a project of ${team.key}.`, [
          { path: fieldPath("body", "projectId"), message: `not a project that includes ${team.key}` },
        ]);
      }
    }
    // The unique index on (team, trigger, project) treats nulls as equal, so the team-wide rule upserts too.
    const row = await upsertWorkflowRule(em, team.id, { ...input, projectId });
    await recordChanges(em, scope.workspace.id, [
      {
        entity: "workflow",
        action: row.created ? "created" : "updated",
        id: row.id,
        teamKey: team.key,
        teamId: team.id,
      },
    ]);
    const { created, ...rule } = row;
    return { created, rule };
  });
}

export async function deleteWorkflow(scope: WorkspaceScope, ref: string, ruleId: string) {
  const team = await resolveTeam(scope, ref);
  await authorizeTeamManager(scope, team);
  await scope.em.transactional(async (em) => {
    await findById(
      ruleId,
      `No workflow rule "${ruleId}" in ${team.key}.`,
      async (id) => (await em.nativeDelete(WorkflowRule, { id, team: team.id })) || undefined,
    );
    await recordChanges(em, scope.workspace.id, [
      { entity: "workflow", action: "deleted", id: ruleId, teamKey: team.key, teamId: team.id },
    ]);
  });
}
