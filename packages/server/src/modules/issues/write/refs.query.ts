import { randomUUID } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { sql } from "../../../db/sql.js";
import { q, raw, type SqlFragment } from "../../../db/sql-fragment.js";
import type { WorkspaceScope } from "../../../http/handler.js";
import { Invalid, NotFound } from "../../../http/problem.js";
import { memberSeesTeamSql } from "../../../rules/visibility.js";
import type { UserBrief } from "../../activity/activity.query.js";
import {
  type CycleRow,
  type IssueKey,
  isUuid,
  type NamedRow,
  type StateRow,
} from "../../shared/resolve.query.js";

/**
 * The references an issue write names (state, assignee, project, cycle, labels), resolved in SQL as
 * select-list columns (`newState`, `newAssignee`, ...: the issue's own columns may be selected beside them)
 * of the write's one resolving statement instead of one query each. Each `…Column`
 * builder reads them relative to a team (an SQL alias `t` of a teams row, or its id expression), and the
 * matching `check…` turns the column into the row or throws the error the contract gives, with the same
 * messages as the single resolvers of shared/resolve.query.ts. Callers run the checks in the contract's order.
 */

type CycleSelector = components["schemas"]["CycleSelector"];

const withParams = (text: string, params: unknown[]): SqlFragment => ({ sql: text, params });

/** Colour of labels created on the fly by naming them on an issue. */
export const DEFAULT_LABEL_COLOR = "#bec2c8";

// ---- State -------------------------------------------------------------------------------------

const STATE_JSON =
  "json_build_object('id', ws.id, 'name', ws.name, 'type', ws.type, 'color', ws.color, 'position', ws.position)";

/** The order whose first state is a team's default: backlog first, then unstarted, then any; by position. */
const DEFAULT_STATE_ORDER =
  "case ws.type when 'backlog' then 0 when 'unstarted' then 1 else 2 end, ws.position, ws.id";

/**
 * Columns `newState` and `stateNames` (to name the team's states when `ref` names none) for the team whose
 * id is the SQL expression `teamId`. Without a `ref`: the team's default state, its first backlog state by
 * position, else its first unstarted one, else its first state.
 */
export function stateColumns(teamId: string, ref: string | undefined): SqlFragment {
  if (ref === undefined)
    return raw(`(select ${STATE_JSON} from workflow_states ws where ws.team_id = ${teamId}
       order by ${DEFAULT_STATE_ORDER} limit 1) as "newState", null as "stateNames"`);
  return withParams(
    `(select ${STATE_JSON} from workflow_states ws
       where ws.team_id = ${teamId} and ${isUuid(ref) ? "ws.id = ?" : "lower(ws.name) = lower(?)"}) as "newState",
     (select string_agg(ws.name, ', ' order by ws.position) from workflow_states ws
       where ws.team_id = ${teamId}) as "stateNames"`,
    [ref],
  );
}

export interface StateColumns {
  newState: StateRow | null;
  stateNames: string | null;
}

/** A state named by `ref` must exist in the team: an unknown name is bad input (400), as the contract says. */
export function checkState(row: StateColumns, ref: string | undefined): StateRow {
  if (row.newState) return row.newState;
  if (ref === undefined) throw new Invalid("The team has no workflow states.");
  const message = `No state "${ref}" in this team. States: ${row.stateNames ?? ""}.`;
  throw new Invalid(message, [{ path: "/body/state", message }]);
}

// ---- Assignee ----------------------------------------------------------------------------------

export interface AssigneeRow {
  id: string;
  name: string;
  email: string;
  /** An agent is delegated an issue (`delegate`), never assigned it. */
  agent?: boolean;
  allowed: boolean;
}

/**
 * Column `newAssignee`: the workspace member `ref` names (email, id or `me`) and whether they can see the
 * team `t` (a teams alias): the owner for a personal space; guests only if they joined it.
 */
export function assigneeColumn(scope: WorkspaceScope, ref: string): SqlFragment {
  const [match, value] =
    ref === "me" ? ["u.id = ?", scope.caller.userId] : [isUuid(ref) ? "u.id = ?" : "u.email = lower(?)", ref];
  return withParams(
    `(select json_build_object('id', u.id, 'name', u.name, 'email', u.email, 'agent', u.kind = 'agent', 'allowed',
               ${memberSeesTeamSql("t", "u", "m")})
        from users u join memberships m on m.user_id = u.id and m.workspace_id = ?
       where ${match}) as "newAssignee"`,
    [scope.workspace.id, value],
  );
}

/** The assignee as `{id, name}`; an unknown member is 404, one who cannot see the team 400. */
export function checkAssignee(
  scope: WorkspaceScope,
  row: AssigneeRow | null,
  ref: string,
  teamKey: string,
): UserBrief {
  if (!row) throw new NotFound(`No member "${ref}" in this workspace.`);
  if (row.agent)
    throw new Invalid(
      `${row.name} is an agent: delegate the issue to it (\`delegate\`) instead of assigning it.`,
      [{ path: "/body/assignee", message: "must be a person; agents are delegated issues" }],
    );
  if (!row.allowed)
    throw new Invalid(`${row.email} cannot see team ${teamKey}, so cannot be assigned its issues.`, [
      { path: "/body/assignee", message: "must be a member who can see the team" },
    ]);
  // `me` keeps the caller's own name, as the single resolver does.
  return ref === "me" ? { id: scope.caller.userId, name: scope.caller.name } : { id: row.id, name: row.name };
}

// ---- Project -----------------------------------------------------------------------------------

export interface ProjectRow extends NamedRow {
  included: boolean;
}

/** Column `newProject`: the workspace's project by id or name (case-insensitive), and whether it includes `t`. */
export function projectColumn(scope: WorkspaceScope, ref: string): SqlFragment {
  return withParams(
    `(select json_build_object('id', p.id, 'name', p.name, 'included',
               exists (select 1 from project_teams ptm where ptm.project_id = p.id and ptm.team_id = t.id))
        from projects p
       where p.workspace_id = ? and ${isUuid(ref) ? "p.id = ?" : "lower(p.name) = lower(?)"}) as "newProject"`,
    [scope.workspace.id, ref],
  );
}

/**
 * Share-locks the project a write is about to put an issue in, ahead of the issue itself (the order a
 * change of the project's teams takes them: project row, then the issues it clears). A concurrent change
 * of its teams then either commits first, and the check that the project includes the issue's team, made
 * by the next statement, sees the new teams; or waits for this write, and clears the issue if its team was
 * taken off. Without it, an issue could keep a project that no longer includes its team.
 */
export async function shareLockProject(scope: WorkspaceScope, ref: string): Promise<void> {
  await sql(
    scope.em,
    q`select id from projects where workspace_id = ${scope.workspace.id} and ${isUuid(ref) ? q`id = ${ref}` : q`lower(name) = lower(${ref})`}
        for share`,
  );
}

/**
 * {@link shareLockProject} for the projects many writes name, in one statement, locked in id order (so two
 * such writes naming the same projects never wait on each other in a cycle).
 */
export async function shareLockProjects(scope: WorkspaceScope, refs: string[]): Promise<void> {
  if (refs.length === 0) return;
  await sql(
    scope.em,
    q`select id from projects
      where workspace_id = ${scope.workspace.id} and (id = any(${refs.filter(isUuid)}::uuid[]) or lower(name) in (select lower(n) from unnest(${refs.filter((r) => !isUuid(r))}::text[]) n))
      order by id for share`,
  );
}

/** The project; unknown is 404, one that does not include the team 400. */
export function checkProject(row: ProjectRow | null, ref: string, teamKey: string): NamedRow {
  if (!row) throw new NotFound(`No project "${ref}" in this workspace.`);
  if (!row.included)
    throw new Invalid(`Project "${row.name}" does not include team ${teamKey}.`, [
      { path: "/body/project", message: "must include the issue's team" },
    ]);
  return { id: row.id, name: row.name };
}

// ---- Cycle -------------------------------------------------------------------------------------

/** Column `newCycle`: the team `t`'s cycle by number, or `current` (the cycle whose dates contain now). */
export function cycleColumn(ref: CycleSelector): SqlFragment {
  return ref === "current"
    ? raw(`(select json_build_object('id', cy.id, 'number', cy.number) from cycles cy
             where cy.team_id = t.id and cy.starts_at <= now() and cy.ends_at > now()
             order by cy.starts_at desc limit 1) as "newCycle"`)
    : withParams(
        `(select json_build_object('id', cy.id, 'number', cy.number) from cycles cy
           where cy.team_id = t.id and cy.number = ?) as "newCycle"`,
        [Number(ref)],
      );
}

/** The cycle; `current` without an active cycle is bad input (400), an unknown number 404. */
export function checkCycle(row: CycleRow | null, ref: CycleSelector): CycleRow {
  if (row) return row;
  if (ref === "current")
    throw new Invalid("The team has no current cycle.", [
      { path: "/body/cycle", message: "the team has no active cycle" },
    ]);
  throw new NotFound(`No cycle ${ref} in this team.`);
}

// ---- Many writes at once ------------------------------------------------------------------------

/**
 * A write's named references as the columns of a row alias `r`, for resolving many writes' references in
 * one statement (`POST /issues/batch`): each reference is split in JavaScript, as the single builders above
 * split it, into the id it gives (when a UUID) or the name, email or number it gives, so the statement's
 * text is the same whatever the references and each lookup is still an equality.
 */
export interface RefColumnsRow {
  state_id: string | null;
  state_name: string | null;
  assignee_id: string | null;
  assignee_email: string | null;
  project_id: string | null;
  project_name: string | null;
  cycle_number: number | null;
  cycle_current: boolean;
}

/** {@link RefColumnsRow} of one write's references (`me` is the caller's id). */
export function refColumnsRow(
  scope: WorkspaceScope,
  input: { state?: string; assignee?: string | null; project?: string | null; cycle?: CycleSelector | null },
): RefColumnsRow {
  const split = (ref: string | null | undefined) =>
    ref == null ? [null, null] : isUuid(ref) ? [ref, null] : [null, ref];
  const [stateId, stateName] = split(input.state);
  const [assigneeId, assigneeEmail] =
    input.assignee === "me" ? [scope.caller.userId, null] : split(input.assignee);
  const [projectId, projectName] = split(input.project);
  return {
    state_id: stateId!,
    state_name: stateName!,
    assignee_id: assigneeId!,
    assignee_email: assigneeEmail!,
    project_id: projectId!,
    project_name: projectName!,
    cycle_number: input.cycle != null && input.cycle !== "current" ? Number(input.cycle) : null,
    cycle_current: input.cycle === "current",
  };
}

/** The SQL types of {@link RefColumnsRow}'s columns, in its order, for `unnest(...) as r(...)`. */
export const REF_COLUMNS: readonly [keyof RefColumnsRow, string][] = [
  ["state_id", "uuid"],
  ["state_name", "text"],
  ["assignee_id", "uuid"],
  ["assignee_email", "text"],
  ["project_id", "uuid"],
  ["project_name", "text"],
  ["cycle_number", "int"],
  ["cycle_current", "boolean"],
];

/**
 * The columns `newState`, `stateNames`, `newAssignee`, `newProject` and `newCycle` (as
 * {@link stateColumns} and {@link namedRefColumns} select them, checked with the same `check…`) of the
 * references in the columns of `r` ({@link REF_COLUMNS}), relative to the team alias `t`.
 */
export function refColumnsFromRow(scope: WorkspaceScope): SqlFragment {
  const stateGiven = "(r.state_id is not null or r.state_name is not null)";
  return withParams(
    `case when ${stateGiven}
       then (select ${STATE_JSON} from workflow_states ws
              where ws.team_id = t.id and (ws.id = r.state_id or lower(ws.name) = lower(r.state_name)))
       else (select ${STATE_JSON} from workflow_states ws where ws.team_id = t.id
              order by ${DEFAULT_STATE_ORDER} limit 1) end as "newState",
     case when ${stateGiven}
       then (select string_agg(ws.name, ', ' order by ws.position) from workflow_states ws where ws.team_id = t.id)
       end as "stateNames",
     (select json_build_object('id', u.id, 'name', u.name, 'email', u.email, 'agent', u.kind = 'agent', 'allowed',
               ${memberSeesTeamSql("t", "u", "m")})
        from users u join memberships m on m.user_id = u.id and m.workspace_id = ?
       where u.id = r.assignee_id or u.email = lower(r.assignee_email)) as "newAssignee",
     (select json_build_object('id', p.id, 'name', p.name, 'included',
               exists (select 1 from project_teams ptm where ptm.project_id = p.id and ptm.team_id = t.id))
        from projects p
       where p.workspace_id = ? and (p.id = r.project_id or lower(p.name) = lower(r.project_name))) as "newProject",
     case when r.cycle_current
       then (select json_build_object('id', cy.id, 'number', cy.number) from cycles cy
              where cy.team_id = t.id and cy.starts_at <= now() and cy.ends_at > now()
              order by cy.starts_at desc limit 1)
       else (select json_build_object('id', cy.id, 'number', cy.number) from cycles cy
              where cy.team_id = t.id and cy.number = r.cycle_number) end as "newCycle"`,
    [scope.workspace.id, scope.workspace.id],
  );
}

/** The columns a write's resolving statement selects for the references it names, beside `newState`. */
export type NamedRefs = LabelColumns & {
  newAssignee: AssigneeRow | null;
  newProject: ProjectRow | null;
  newCycle: CycleRow | null;
  newParent: IssueKey | null;
};

/**
 * Columns `newAssignee`, `newProject` and `newCycle` of the references a write names, each null when the
 * write names none (`null` itself, to clear one, needs no lookup).
 */
export function namedRefColumns(
  scope: WorkspaceScope,
  input: { assignee?: string | null; project?: string | null; cycle?: CycleSelector | null },
): SqlFragment {
  return q`${input.assignee != null ? assigneeColumn(scope, input.assignee) : raw(`null as "newAssignee"`)},
             ${input.project != null ? projectColumn(scope, input.project) : raw(`null as "newProject"`)},
             ${input.cycle != null ? cycleColumn(input.cycle) : raw(`null as "newCycle"`)}`;
}

// ---- Labels ------------------------------------------------------------------------------------

export interface LabelRef {
  id: string;
  name: string;
}

/**
 * Label names as a request gives them: trimmed, duplicates (case-insensitive) collapsed with the first
 * spelling winning, keyed by lower case. A blank name is bad input.
 */
export function labelSpellings(names: string[]): Map<string, string> {
  const wanted = new Map<string, string>();
  for (const raw of names) {
    const name = raw.trim();
    if (!name)
      throw new Invalid("Label names cannot be blank.", [{ path: "/body/labels", message: "blank name" }]);
    if (!wanted.has(name.toLowerCase())) wanted.set(name.toLowerCase(), name);
  }
  return wanted;
}

/**
 * Labels named by a write, validated up front (a blank name is 400) but refused only after the other
 * references, in the order the contract checks them.
 */
export function plannedLabels(names: string[] | undefined): {
  wanted?: Map<string, string>;
  error?: unknown;
} {
  if (!names?.length) return {};
  try {
    const wanted = labelSpellings(names);
    return wanted.size ? { wanted } : {};
  } catch (error) {
    return { error };
  }
}

/**
 * The CTE `label_ins` creating the workspace labels of `wanted` that do not exist yet, with the default
 * colour. Concurrent requests creating the same new label both succeed: the unique index on
 * (workspace_id, lower(name)) arbitrates via ON CONFLICT. `after` names a CTE computed in full before any
 * label is created (each label row is produced from its count), so the locks it takes come first, as
 * every writer's lock order requires.
 */
export function labelInsertCte(
  workspaceId: string,
  wanted: Map<string, string>,
  after?: string,
): SqlFragment {
  const spellings = [...wanted.values()];
  return q`label_ins as (
    insert into labels (id, workspace_id, name, color, description, created_at, updated_at)
    select x.id, ${workspaceId}, x.name, ${DEFAULT_LABEL_COLOR}, null, now(), now()
      from unnest(${spellings.map(() => randomUUID())}::uuid[], ${spellings}::text[]) as x(id, name)
           ${raw(after ? `, (select count(*) from ${after}) as after_locks` : "")}
        on conflict (workspace_id, (lower(name))) do nothing
    returning id, name)`;
}

/** Columns `labelsCreated` (by `label_ins`) and `labelsExisting` (the others, as of the statement's start). */
export function labelColumns(workspaceId: string, wanted: Map<string, string> | undefined): SqlFragment {
  if (!wanted) return raw(`null as "labelsCreated", null as "labelsExisting"`);
  return q`(select json_agg(json_build_object('id', li.id, 'name', li.name)) from label_ins li) as "labelsCreated",
    (select json_agg(json_build_object('id', lx.id, 'name', lx.name)) from labels lx
      where lx.workspace_id = ${workspaceId} and lower(lx.name) = any(${[...wanted.keys()]}::text[])) as "labelsExisting"`;
}

export interface LabelColumns {
  labelsCreated: LabelRef[] | null;
  labelsExisting: LabelRef[] | null;
}

/**
 * The labels of `wanted` in input order, and the ids of those this request created. A label another
 * transaction created and committed while this statement waited on it is in neither column (the statement
 * reads as of its start), so then they are read again, which sees it.
 */
export async function labelsOf(
  em: EntityManager,
  workspaceId: string,
  wanted: Map<string, string>,
  row: LabelColumns,
): Promise<{ labels: LabelRef[]; created: string[] }> {
  const created = row.labelsCreated ?? [];
  let rows = [...created, ...(row.labelsExisting ?? [])];
  const byLower = new Map(rows.map((r) => [r.name.toLowerCase(), r]));
  if ([...wanted.keys()].some((k) => !byLower.has(k))) {
    rows = await sql<LabelRef>(
      em,
      q`select id, name from labels where workspace_id = ${workspaceId} and lower(name) = any(${[...wanted.keys()]}::text[])`,
    );
    for (const r of rows) byLower.set(r.name.toLowerCase(), r);
  }
  return { labels: [...wanted.keys()].map((k) => byLower.get(k)!), created: created.map((c) => c.id) };
}
