import type { EntityManager } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { type Change, recordChanges } from "../../events/record-change.query.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { Conflict, fieldPath, guardUnique, Invalid, NotFound } from "../../http/problem.js";
import { STATE_TYPES, type StateType } from "../../rules/state-types.js";
import { type ActivityInput, recordActivities } from "../activity/activity.query.js";
import { isUuid, resolveTeam, type TeamRow } from "../shared/resolve.query.js";
import { DEFAULT_STATES, WorkflowState } from "./team.entity.js";
import { authorizeTeamManager } from "./team.service.js";
import {
  deleteStateRow,
  lockTeamStates,
  movedIssueChanges,
  moveStateIssues,
  readState,
  renumberStates,
  retargetRules,
  rewriteStateFilters,
  type StateRow,
  stateIssueCount,
} from "./workflow-state.query.js";

/**
 * A team's workflow states: added, renamed, recolored, reordered and deleted (the contract's
 * createWorkflowState, updateWorkflowState, deleteWorkflowState). Each write holds the team's row for its
 * transaction, so concurrent writes to one team's states apply one after the other; positions stay 0..n-1.
 */

type Schemas = components["schemas"];

/** recordChanges binds 7 parameters per change; stay well under PostgreSQL's 65535. */
const CHANGE_CHUNK = 5000;

/**
 * The kinds a team always keeps a state of (the contract's deleteWorkflowState): reopening goes to an open
 * state not started, closing to `completed` or `canceled`.
 */
const REQUIRED_KINDS: { types: StateType[]; label: string }[] = [
  { types: ["backlog", "unstarted"], label: "backlog or unstarted" },
  { types: ["completed"], label: "completed" },
  { types: ["canceled"], label: "canceled" },
];

const rank = (type: StateType) => STATE_TYPES.indexOf(type);

const teamChange = (team: TeamRow): Change => ({
  entity: "team",
  action: "updated",
  id: team.id,
  teamKey: team.key,
  teamId: team.id,
});

async function recordInChunks(em: EntityManager, workspaceId: string, changes: Change[]) {
  for (let i = 0; i < changes.length; i += CHANGE_CHUNK) {
    await recordChanges(em, workspaceId, changes.slice(i, i + CHANGE_CHUNK));
  }
}

function blankName(name: string | undefined) {
  if (name === "")
    throw new Invalid("A workflow state needs a name.", [
      { path: fieldPath("body", "name"), message: "must not be blank" },
    ]);
}

const nameTaken = (team: TeamRow, name: string) =>
  new Conflict(
    "state_name_taken",
    `${team.key} already has a workflow state named "${name}" (names are unique regardless of case).`,
  );

/** 409 when another state of the team has the name, case-insensitively. */
function checkNameFree(team: TeamRow, states: StateRow[], name: string, self?: string) {
  if (states.some((s) => s.id !== self && s.name.toLowerCase() === name.toLowerCase()))
    throw nameTaken(team, name);
}

/** The unique index on (team, name) decides last, so a concurrent write never turns into a 500. */
const guardStateName = <T>(team: TeamRow, name: string, work: () => Promise<T>) =>
  guardUnique(work, { workflow_states_team_id_name_unique: () => nameTaken(team, name) });

/** A state of the team by id, or by name (case-insensitive). */
function findState(states: StateRow[], ref: string): StateRow | undefined {
  if (isUuid(ref)) {
    const byId = states.find((s) => s.id === ref);
    if (byId) return byId;
  }
  return states.find((s) => s.name.toLowerCase() === ref.toLowerCase());
}

async function lockStates(em: EntityManager, team: TeamRow) {
  const states = await lockTeamStates(em, team.id);
  if (!states) throw new NotFound("The team is gone.");
  return states;
}

/**
 * Where a new state goes without a `position`: after the last state of its type, else after the last
 * state of an earlier type, else first.
 */
function defaultPosition(states: StateRow[], type: StateType): number {
  const sameType = states.findLastIndex((s) => s.type === type);
  if (sameType >= 0) return sameType + 1;
  return states.findLastIndex((s) => rank(s.type) < rank(type)) + 1;
}

export async function createWorkflowState(
  scope: WorkspaceScope,
  ref: string,
  input: Schemas["WorkflowStateCreate"],
): Promise<StateRow> {
  const team = await resolveTeam(scope, ref);
  await authorizeTeamManager(scope, team);
  const name = input.name.trim();
  blankName(name);
  return scope.em.transactional(async (em) => {
    const states = await lockStates(em, team);
    checkNameFree(team, states, name);
    const color = input.color ?? DEFAULT_STATES.find((d) => d.type === input.type)?.color ?? "#95a2b3";
    const state = em.create(WorkflowState, {
      team: team.id,
      name,
      type: input.type,
      color,
      position: states.length,
    });
    await guardStateName(team, name, () => em.flush());
    const at = Math.min(input.position ?? defaultPosition(states, input.type), states.length);
    const order = states.map((s) => s.id);
    order.splice(at, 0, state.id);
    await renumberStates(em, team.id, order);
    await recordChanges(em, scope.workspace.id, [teamChange(team)]);
    return (await readState(em, state.id))!;
  });
}

export async function updateWorkflowState(
  scope: WorkspaceScope,
  ref: string,
  stateRef: string,
  input: Schemas["WorkflowStateUpdate"],
): Promise<StateRow> {
  const team = await resolveTeam(scope, ref);
  await authorizeTeamManager(scope, team);
  const name = input.name?.trim();
  blankName(name);
  return scope.em.transactional(async (em) => {
    const states = await lockStates(em, team);
    const state = findState(states, stateRef);
    if (!state) throw new NotFound(`No workflow state "${stateRef}" in ${team.key}.`);
    const changes: Change[] = [];
    if (name !== undefined && name !== state.name) {
      checkNameFree(team, states, name, state.id);
      await guardStateName(team, name, () => em.nativeUpdate(WorkflowState, { id: state.id }, { name }));
      changes.push(...(await rewriteStateFilters(em, scope.workspace.id, team, state.name, name)));
    }
    if (input.color !== undefined && input.color !== state.color)
      await em.nativeUpdate(WorkflowState, { id: state.id }, { color: input.color });
    if (input.position !== undefined) {
      const order = states.map((s) => s.id).filter((id) => id !== state.id);
      order.splice(Math.min(input.position, order.length), 0, state.id);
      await renumberStates(em, team.id, order);
    }
    await recordInChunks(em, scope.workspace.id, [teamChange(team), ...changes]);
    return (await readState(em, state.id))!;
  });
}

export async function deleteWorkflowState(
  scope: WorkspaceScope,
  ref: string,
  stateRef: string,
  moveTo: string | undefined,
): Promise<{ ok: true; moved: number }> {
  const team = await resolveTeam(scope, ref);
  await authorizeTeamManager(scope, team);
  const ws = scope.workspace.id;
  return scope.em.transactional(async (em) => {
    const states = await lockStates(em, team);
    const state = findState(states, stateRef);
    if (!state) throw new NotFound(`No workflow state "${stateRef}" in ${team.key}.`);
    const rest = states.filter((s) => s.id !== state.id);
    for (const kind of REQUIRED_KINDS) {
      if (kind.types.includes(state.type) && !rest.some((s) => kind.types.includes(s.type)))
        throw new Conflict(
          "last_state",
          `"${state.name}" is the last ${kind.label} state of ${team.key}: closing and reopening issues need one. Add another before deleting it.`,
        );
    }
    const target = moveTo === undefined ? undefined : findState(rest, moveTo);
    if (moveTo !== undefined && !target)
      throw new Invalid(
        `moveTo is not another workflow state of ${team.key}; states: ${rest.map((s) => s.name).join(", ")}.`,
        [{ path: fieldPath("query", "moveTo"), message: `not another state of ${team.key}` }],
      );
    const held = await stateIssueCount(em, state.id);
    if (held > 0 && !target)
      throw new Invalid(
        `"${state.name}" holds ${held} issue${held === 1 ? "" : "s"}: say which state they move to (moveTo).`,
        [{ path: fieldPath("query", "moveTo"), message: "required while the state holds issues" }],
      );
    const moved = target ? await moveStateIssues(em, state, target) : [];
    if (target) {
      const brief = (s: StateRow) => ({ id: s.id, name: s.name, type: s.type });
      const activities: ActivityInput[] = moved.map((i) => ({
        workspaceId: ws,
        issueId: i.id,
        actorId: scope.caller.userId,
        type: "state_changed",
        payload: { from: brief(state), to: brief(target) },
      }));
      await recordActivities(em, activities);
    }
    const ruleChanges = await retargetRules(em, team, state.id, target?.id ?? null);
    const viewChanges = await rewriteStateFilters(em, ws, team, state.name, target?.name ?? null);
    await deleteStateRow(em, team.id, state.id);
    await renumberStates(
      em,
      team.id,
      rest.map((s) => s.id),
    );
    await recordInChunks(em, ws, [
      ...movedIssueChanges(moved),
      ...ruleChanges,
      ...viewChanges,
      teamChange(team),
    ]);
    return { ok: true as const, moved: moved.length };
  });
}
