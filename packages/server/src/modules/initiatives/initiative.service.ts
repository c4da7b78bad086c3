import { randomUUID } from "node:crypto";
import { type EntityManager, LockMode } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { recordChanges } from "../../events/record-change.query.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { Conflict, fieldPath, guardUnique, Invalid, NotFound } from "../../http/problem.js";
import {
  moveProjectToWorkspace,
  resolveTargetTeam,
  type WorkspaceMoveReport,
} from "../projects/project-move.query.js";
import { resolveTargetWorkspace } from "../projects/project-move.service.js";
import { resolveUser } from "../shared/resolve.query.js";
import { type IInitiative, Initiative } from "./initiative.entity.js";
import {
  cancelInitiative,
  copyInitiative,
  findInitiative,
  type InitiativeOut,
  lockInitiative,
  lockProjectsOf,
  queryInitiatives,
  setProjectsInitiative,
} from "./initiative.query.js";

type Schemas = components["schemas"];
type InitiativeRecord = Schemas["InitiativeRecord"];

const NAME_UNIQUE = "initiatives_workspace_lower_name_unique";

/** Runs `work`, turning the unique index on initiative names into 409 `conflict`. */
const guardName = <T>(name: string, where: string, work: () => Promise<T>) =>
  guardUnique(work, {
    [NAME_UNIQUE]: () =>
      new Conflict("conflict", `An initiative named "${name}" already exists in ${where}.`),
  });

/** A resolved initiative's entity; 404 when it went meanwhile (moved to another workspace). */
async function loadInitiative(em: EntityManager, id: string, ref: string, lockMode?: LockMode) {
  const initiative = await em.findOne(Initiative, id, { lockMode });
  if (!initiative) throw new NotFound(`No initiative "${ref}" in this workspace.`);
  return initiative;
}

/** The contract's `InitiativeRecord` of an initiative entity. */
function initiativeRecord(initiative: IInitiative): InitiativeRecord {
  return {
    id: initiative.id,
    name: initiative.name,
    status: initiative.status,
    description: initiative.description ?? null,
    leadId: initiative.lead?.id ?? null,
    targetDate: initiative.targetDate ?? null,
  };
}

export async function createInitiative(
  scope: WorkspaceScope,
  input: Schemas["InitiativeCreate"],
): Promise<InitiativeRecord> {
  const lead = input.lead ? await resolveUser(scope, input.lead) : null;
  return scope.em.transactional(async (em) => {
    const initiative = em.create(Initiative, {
      workspace: scope.workspace.id,
      name: input.name,
      description: input.description ?? null,
      status: input.status ?? "planned",
      lead: lead?.id ?? null,
      targetDate: input.targetDate ?? null,
    });
    await guardName(input.name, "this workspace", () => em.flush());
    await recordChanges(em, scope.workspace.id, [
      { entity: "initiative", action: "created", id: initiative.id },
    ]);
    return initiativeRecord(initiative);
  });
}

export async function updateInitiative(
  scope: WorkspaceScope,
  ref: string,
  input: Schemas["InitiativeUpdate"],
): Promise<InitiativeRecord> {
  const found = await findInitiative(scope, ref);
  const lead = typeof input.lead === "string" ? await resolveUser(scope, input.lead) : input.lead;
  const changes = {
    name: input.name,
    description: input.description,
    status: input.status,
    lead: lead === undefined ? undefined : (lead?.id ?? null),
    targetDate: input.targetDate,
  };
  if (Object.values(changes).every((v) => v === undefined)) {
    return initiativeRecord(await loadInitiative(scope.em, found.id, ref));
  }
  return scope.em.transactional(async (em) => {
    // Locked as the update would lock it, so the answer is the row as this change leaves it.
    const initiative = await loadInitiative(em, found.id, ref, LockMode.PESSIMISTIC_WRITE);
    em.assign(initiative, { ...changes, updatedAt: new Date() }, { ignoreUndefined: true });
    await guardName(input.name ?? found.name, "this workspace", () => em.flush());
    await recordChanges(em, scope.workspace.id, [{ entity: "initiative", action: "updated", id: found.id }]);
    return initiativeRecord(initiative);
  });
}

/** `GET /initiatives/{id}`: an initiative the caller may see, by id or name, as the list shows it. */
export async function getInitiative(scope: WorkspaceScope, ref: string): Promise<InitiativeOut> {
  const { id } = await findInitiative(scope, ref);
  const { initiatives } = await queryInitiatives(scope, { ids: [id] });
  if (!initiatives[0]) throw new NotFound(`No initiative "${ref}" in this workspace.`);
  return initiatives[0];
}

export async function initiativePageData(scope: WorkspaceScope, ref: string) {
  const initiative = await findInitiative(scope, ref);
  return { initiative: { id: initiative.id, leadId: initiative.lead_id } };
}

/**
 * `POST /initiatives/{id}/move`: recreates the initiative in the target workspace, moves each of its
 * projects there with their issues (as `moveProject` does, into `team`), and cancels the original. One
 * transaction: a refusal at any step (a project name taken there, say) leaves both workspaces as they were.
 */
export async function moveInitiative(
  scope: WorkspaceScope,
  ref: string,
  body: Schemas["InitiativeMoveRequest"],
) {
  const initiative = await findInitiative(scope, ref);
  const target = await resolveTargetWorkspace(scope, body.workspace);
  if (target.id === scope.workspace.id) {
    throw new Invalid("The initiative is already in that workspace.", [
      { path: fieldPath("body", "workspace"), message: "must name another workspace" },
    ]);
  }
  return scope.em.transactional(async (em) => {
    const team = await resolveTargetTeam(scope, em, target, body.team);
    const original = await lockInitiative(em, initiative.id, scope.workspace.id);
    if (!original) throw new NotFound("The initiative is no longer in this workspace.");
    const newId = randomUUID();
    await guardName(original.name, `the workspace "${target.name}"`, () =>
      copyInitiative(em, original, newId, target.id),
    );
    const projects = await lockProjectsOf(em, original.id);
    const reports: WorkspaceMoveReport[] = [];
    for (const p of projects) {
      reports.push(
        await moveProjectToWorkspace(em, {
          projectId: p.id,
          source: scope.workspace,
          target,
          team,
          actorId: scope.caller.userId,
        }),
      );
    }
    await setProjectsInitiative(em, projects, newId);
    await cancelInitiative(em, original.id);
    await recordChanges(em, scope.workspace.id, [
      { entity: "initiative", action: "updated", id: original.id },
    ]);
    await recordChanges(em, target.id, [{ entity: "initiative", action: "created", id: newId }]);
    return {
      initiative: { id: newId, workspace: { id: target.id, slug: target.slug, name: target.name } },
      original: { id: original.id, status: "canceled" },
      teamKey: team.key,
      projects: reports.length,
      issues: reports.reduce((n, r) => n + r.issues, 0),
      projectMoves: reports,
    };
  });
}
