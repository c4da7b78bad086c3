import { randomUUID } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { iso, sql, sqlOne } from "../../db/sql.js";
import { type Change, recordChanges } from "../../events/record-change.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { Conflict, Invalid, NotFound } from "../../http/problem.js";
import {
  type ActivityInput,
  type FieldChange,
  type IssueUpdatedField,
  recordActivities,
  type StateBrief,
  type UserBrief,
} from "../activity/activity.service.js";
import { loadComments } from "../comments/comment.service.js";
import {
  type IssueKey,
  resolveCycle,
  resolveIssue,
  resolveProject,
  resolveState,
  resolveTeam,
  resolveUser,
  type StateRow,
  type TeamRow,
  visibleTeamCondition,
} from "../shared/resolve.js";
import type { StateType } from "../teams/team.entity.js";
import { inTransaction } from "./in-transaction.js";
import { type IssueOut, loadIssue } from "./issue.serialize.js";
import { openBlockersOf, relationsOf } from "./relation.service.js";

export type IssueCreateInput = components["schemas"]["IssueCreate"];
export type IssueUpdateInput = components["schemas"]["IssueUpdate"];
export type IssueDetailOut = components["schemas"]["IssueDetail"];
export type IssuePageDataOut = components["schemas"]["IssuePageData"];
export type IssueLinkOut = components["schemas"]["IssueLink"];
type CycleSelector = components["schemas"]["CycleSelector"];

/** Colour of labels created on the fly by naming them on an issue. */
export const DEFAULT_LABEL_COLOR = "#bec2c8";

const FINISHED: readonly StateType[] = ["completed", "canceled"];
const isFinished = (t: StateType) => FINISHED.includes(t);

const issueChange = (
  issue: Pick<IssueKey, "id" | "identifier" | "teamKey" | "teamId">,
  action: Change["action"],
) =>
  ({
    entity: "issue",
    action,
    id: issue.id,
    identifier: issue.identifier,
    teamKey: issue.teamKey,
    teamId: issue.teamId,
  }) satisfies Change;

// ---- References -------------------------------------------------------------------------------

/** A state of the team by name; an unknown name is bad input (400), as the contract says. */
async function stateByName(scope: WorkspaceScope, teamId: string, name: string): Promise<StateRow> {
  try {
    return await resolveState(scope, teamId, name);
  } catch (err) {
    if (err instanceof NotFound)
      throw new Invalid(err.message, [{ path: "body.state", message: err.message }]);
    throw err;
  }
}

/** The team's first backlog state by position, else its first unstarted one, else its first state. */
async function defaultState(scope: WorkspaceScope, teamId: string): Promise<StateRow> {
  const state = await sqlOne<StateRow>(
    scope.em,
    `select id, name, type, color, position from workflow_states where team_id = ?
      order by case type when 'backlog' then 0 when 'unstarted' then 1 else 2 end, position, id limit 1`,
    [teamId],
  );
  if (!state) throw new Invalid("The team has no workflow states.");
  return state;
}

/** A workspace member who can see the team: the owner for a personal space; guests only if they joined. */
async function assignableUser(scope: WorkspaceScope, team: TeamRow, ref: string): Promise<UserBrief> {
  const user = await resolveUser(scope, ref);
  const row = await sqlOne<{ role: string; in_team: boolean }>(
    scope.em,
    `select m.role, exists (select 1 from team_members tm where tm.team_id = ? and tm.user_id = m.user_id) as in_team
       from memberships m where m.workspace_id = ? and m.user_id = ?`,
    [team.id, scope.workspace.id, user.id],
  );
  const allowed = team.personal ? team.owner_id === user.id : row?.role !== "guest" || row.in_team;
  if (!allowed)
    throw new Invalid(`${user.email} cannot see team ${team.key}, so cannot be assigned its issues.`, [
      { path: "body.assignee", message: "must be a member who can see the team" },
    ]);
  return { id: user.id, name: user.name };
}

/** A project that includes the team. */
async function projectOfTeam(scope: WorkspaceScope, team: TeamRow, ref: string) {
  const project = await resolveProject(scope, ref);
  const included = await sqlOne(
    scope.em,
    "select 1 from project_teams where project_id = ? and team_id = ?",
    [project.id, team.id],
  );
  if (!included)
    throw new Invalid(`Project "${project.name}" does not include team ${team.key}.`, [
      { path: "body.project", message: "must include the issue's team" },
    ]);
  return project;
}

/** A cycle of the team; `current` without an active cycle is bad input (400), an unknown number 404. */
async function cycleOfTeam(scope: WorkspaceScope, teamId: string, ref: CycleSelector) {
  try {
    return await resolveCycle(scope, teamId, ref);
  } catch (err) {
    if (err instanceof NotFound && ref === "current")
      throw new Invalid(err.message, [{ path: "body.cycle", message: "the team has no active cycle" }]);
    throw err;
  }
}

/**
 * The workspace labels with these names (case-insensitive), creating the missing ones with the default
 * colour. Concurrent requests creating the same new label both succeed: the unique index on
 * (workspace_id, lower(name)) arbitrates via ON CONFLICT, and the second one reads the first's row.
 * Names are trimmed and duplicates collapse (first spelling wins). Returns the labels in input order and
 * the ids of the labels this call created.
 */
export async function ensureLabels(
  em: EntityManager,
  workspaceId: string,
  names: string[],
): Promise<{ labels: { id: string; name: string }[]; created: string[] }> {
  const wanted = new Map<string, string>();
  for (const raw of names) {
    const name = raw.trim();
    if (!name)
      throw new Invalid("Label names cannot be blank.", [{ path: "body.labels", message: "blank name" }]);
    if (!wanted.has(name.toLowerCase())) wanted.set(name.toLowerCase(), name);
  }
  if (wanted.size === 0) return { labels: [], created: [] };
  const spellings = [...wanted.values()];
  const created = await sql<{ id: string }>(
    em,
    `insert into labels (id, workspace_id, name, color, description, created_at, updated_at)
     select x.id, ?, x.name, ?, null, now(), now()
       from unnest(?::uuid[], ?::text[]) as x(id, name)
         on conflict (workspace_id, (lower(name))) do nothing
     returning id`,
    [workspaceId, DEFAULT_LABEL_COLOR, spellings.map(() => randomUUID()), spellings],
  );
  const rows = await sql<{ id: string; name: string }>(
    em,
    "select id, name from labels where workspace_id = ? and lower(name) = any(?::text[])",
    [workspaceId, [...wanted.keys()]],
  );
  const byLower = new Map(rows.map((r) => [r.name.toLowerCase(), r]));
  return { labels: [...wanted.keys()].map((k) => byLower.get(k)!), created: created.map((c) => c.id) };
}

const labelChanges = (ids: string[]): Change[] =>
  ids.map((id) => ({ entity: "label", action: "created", id }) satisfies Change);

// ---- Create ------------------------------------------------------------------------------------

/**
 * Creates an issue numbered next in its team. The number comes from bumping the team's counter, which
 * holds the team row's lock until commit: concurrent creates get distinct consecutive numbers, and the
 * counter never goes back, so a number is never handed out twice.
 */
export async function createIssue(scope: WorkspaceScope, input: IssueCreateInput): Promise<IssueOut> {
  const id = await inTransaction(scope, async (tx) => {
    const team = await resolveTeam(tx, input.team);
    const state = input.state ? await stateByName(tx, team.id, input.state) : await defaultState(tx, team.id);
    const assignee = input.assignee != null ? await assignableUser(tx, team, input.assignee) : null;
    const project = input.project != null ? await projectOfTeam(tx, team, input.project) : null;
    const cycle = input.cycle != null ? await cycleOfTeam(tx, team.id, input.cycle) : null;
    const parent = input.parent != null ? await resolveIssue(tx, input.parent) : null;
    // The parent's key-share lock (which inserting the child takes anyway) is taken before the team row's,
    // in the order a move of the parent takes its locks, so the two cannot deadlock.
    if (parent) await sql(tx.em, "select 1 from issues where id = ? for key share", [parent.id]);
    // Labels before the counter: every writer takes label locks before the team row, never after.
    const labels = input.labels?.length ? await ensureLabels(tx.em, tx.workspace.id, input.labels) : null;

    const counter = await sqlOne<{ issue_counter: number }>(
      tx.em,
      "update teams set issue_counter = issue_counter + 1 where id = ? returning issue_counter",
      [team.id],
    );
    const issueId = randomUUID();
    const number = counter!.issue_counter;
    await sql(
      tx.em,
      `insert into issues (id, workspace_id, team_id, number, title, description, priority, estimate, due_date,
                           state_id, state_type, assignee_id, creator_id, project_id, cycle_id, parent_id,
                           created_at, updated_at, completed_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?::date, ?, ?, ?, ?, ?, ?, ?, now(), now(), ${isFinished(state.type) ? "now()" : "null"})`,
      [
        issueId,
        tx.workspace.id,
        team.id,
        number,
        input.title,
        input.description ?? null,
        input.priority ?? 0,
        input.estimate ?? null,
        input.dueDate ?? null,
        state.id,
        state.type,
        assignee?.id ?? null,
        tx.caller.userId,
        project?.id ?? null,
        cycle?.id ?? null,
        parent?.id ?? null,
      ],
    );
    if (labels?.labels.length) {
      await sql(tx.em, "insert into issue_labels (issue_id, label_id) select ?, unnest(?::uuid[])", [
        issueId,
        labels.labels.map((l) => l.id),
      ]);
    }
    const key = { id: issueId, identifier: `${team.key}-${number}`, teamKey: team.key, teamId: team.id };
    await recordActivities(tx.em, [
      {
        workspaceId: tx.workspace.id,
        issueId,
        actorId: tx.caller.userId,
        type: "issue_created",
        payload: {
          title: input.title,
          team: { id: team.id, key: team.key, name: team.name },
          state: { id: state.id, name: state.name, type: state.type },
        },
      },
    ]);
    await recordChanges(tx.em, tx.workspace.id, [
      issueChange(key, "created"),
      ...labelChanges(labels?.created ?? []),
    ]);
    return issueId;
  });
  return (await loadIssue(scope.em, id))!;
}

// ---- Update ------------------------------------------------------------------------------------

interface CurrentIssue {
  id: string;
  title: string;
  description: string | null;
  priority: number;
  estimate: number | null;
  due_date: string | null;
  state_id: string;
  state_name: string;
  state_type: StateType;
  assignee_id: string | null;
  assignee_name: string | null;
  project_id: string | null;
  project_name: string | null;
  cycle_id: string | null;
  cycle_number: number | null;
  parent_id: string | null;
  parent_identifier: string | null;
  labels: { id: string; name: string }[];
}

/** Whether `candidate` is the issue itself or one of its descendants (which would make a parent loop). */
async function isSelfOrDescendant(em: EntityManager, issueId: string, candidate: string): Promise<boolean> {
  if (issueId === candidate) return true;
  const row = await sqlOne(
    em,
    `with recursive d(id) as (
       select id from issues where parent_id = ?
       union
       select i.id from issues i join d on i.parent_id = d.id
     ) select 1 from d where id = ? limit 1`,
    [issueId, candidate],
  );
  return row !== undefined;
}

/**
 * Partial update in one transaction (the issue row locked). Records `state_changed`, `assignee_changed`,
 * `labels_changed` and one `issue_updated` for the other fields; a no-op writes nothing at all.
 */
export async function updateIssue(
  scope: WorkspaceScope,
  ref: string,
  input: IssueUpdateInput,
): Promise<IssueOut> {
  if (input.labels !== undefined && (input.addLabels !== undefined || input.removeLabels !== undefined))
    throw new Invalid("Give either `labels` (the whole set) or `addLabels`/`removeLabels`, not both.", [
      { path: "body.labels", message: "may not be combined with addLabels or removeLabels" },
    ]);
  const id = await inTransaction(scope, async (tx) => {
    const key = await resolveIssue(tx, ref);
    const team = await resolveTeam(tx, key.teamId);
    const cur = await sqlOne<CurrentIssue>(
      tx.em,
      `select i.id, i.title, i.description, i.priority, i.estimate, to_char(i.due_date, 'YYYY-MM-DD') as due_date,
              s.id as state_id, s.name as state_name, s.type as state_type,
              a.id as assignee_id, a.name as assignee_name, p.id as project_id, p.name as project_name,
              c.id as cycle_id, c.number as cycle_number,
              i.parent_id, pt.key || '-' || pi.number as parent_identifier,
              coalesce((select json_agg(json_build_object('id', l.id, 'name', l.name) order by l.name)
                          from issue_labels il join labels l on l.id = il.label_id where il.issue_id = i.id),
                       '[]') as labels
         from issues i
         join workflow_states s on s.id = i.state_id
         left join users a on a.id = i.assignee_id
         left join projects p on p.id = i.project_id
         left join cycles c on c.id = i.cycle_id
         left join issues pi on pi.id = i.parent_id
         left join teams pt on pt.id = pi.team_id
        where i.id = ?
        for update of i`,
      [key.id],
    );
    if (!cur) throw new NotFound(`No issue "${ref}" in this workspace.`);

    const sets: string[] = [];
    const params: unknown[] = [];
    const set = (column: string, value: unknown, cast = "") => {
      sets.push(`${column} = ?${cast}`);
      params.push(value);
    };
    const changes: Partial<Record<IssueUpdatedField, FieldChange>> = {};
    const events: ActivityInput[] = [];
    const event = (e: Omit<ActivityInput, "workspaceId" | "issueId" | "actorId">) =>
      events.push({
        workspaceId: tx.workspace.id,
        issueId: cur.id,
        actorId: tx.caller.userId,
        ...e,
      } as ActivityInput);

    const plain = [
      ["title", "title", cur.title, input.title],
      ["description", "description", cur.description, input.description],
      ["priority", "priority", cur.priority, input.priority],
      ["estimate", "estimate", cur.estimate, input.estimate],
      ["dueDate", "due_date", cur.due_date, input.dueDate],
    ] as const;
    for (const [field, column, from, to] of plain) {
      if (to === undefined || to === from) continue;
      set(column, to, column === "due_date" ? "::date" : "");
      changes[field] = { from, to };
    }

    if (input.state !== undefined) {
      const state = await stateByName(tx, team.id, input.state);
      if (state.id !== cur.state_id) {
        set("state_id", state.id);
        set("state_type", state.type);
        if (!isFinished(state.type)) sets.push("completed_at = null");
        else if (state.type !== cur.state_type) sets.push("completed_at = now()");
        const from: StateBrief = { id: cur.state_id, name: cur.state_name, type: cur.state_type };
        event({
          type: "state_changed",
          payload: { from, to: { id: state.id, name: state.name, type: state.type } },
        });
      }
    }

    if (input.assignee !== undefined) {
      const assignee = input.assignee === null ? null : await assignableUser(tx, team, input.assignee);
      if ((assignee?.id ?? null) !== cur.assignee_id) {
        set("assignee_id", assignee?.id ?? null);
        const from = cur.assignee_id ? { id: cur.assignee_id, name: cur.assignee_name! } : null;
        event({ type: "assignee_changed", payload: { from, to: assignee } });
      }
    }

    if (input.project !== undefined) {
      const project = input.project === null ? null : await projectOfTeam(tx, team, input.project);
      if ((project?.id ?? null) !== cur.project_id) {
        set("project_id", project?.id ?? null);
        changes.project = {
          from: cur.project_id ? { id: cur.project_id, name: cur.project_name } : null,
          to: project ? { id: project.id, name: project.name } : null,
        };
      }
    }

    if (input.cycle !== undefined) {
      const cycle = input.cycle === null ? null : await cycleOfTeam(tx, team.id, input.cycle);
      if ((cycle?.id ?? null) !== cur.cycle_id) {
        set("cycle_id", cycle?.id ?? null);
        changes.cycle = {
          from: cur.cycle_id ? { id: cur.cycle_id, number: cur.cycle_number } : null,
          to: cycle ? { id: cycle.id, number: cycle.number } : null,
        };
      }
    }

    if (input.parent !== undefined) {
      const parent = input.parent === null ? null : await resolveIssue(tx, input.parent);
      if (parent && (await isSelfOrDescendant(tx.em, cur.id, parent.id)))
        throw new Invalid(
          `${parent.identifier} cannot be the parent of ${key.identifier}: that would make a loop.`,
          [{ path: "body.parent", message: "may not be the issue itself or one of its sub-issues" }],
        );
      if ((parent?.id ?? null) !== cur.parent_id) {
        set("parent_id", parent?.id ?? null);
        changes.parent = { from: cur.parent_identifier, to: parent?.identifier ?? null };
      }
    }

    let createdLabels: string[] = [];
    let labelIds: string[] | null = null;
    if (input.labels !== undefined || input.addLabels !== undefined || input.removeLabels !== undefined) {
      const ensured = await ensureLabels(tx.em, tx.workspace.id, [
        ...(input.labels ?? []),
        ...(input.addLabels ?? []),
      ]);
      createdLabels = ensured.created;
      const removing = new Set((input.removeLabels ?? []).map((n) => n.trim().toLowerCase()));
      const next = new Map<string, { id: string; name: string }>();
      if (input.labels === undefined) for (const l of cur.labels) next.set(l.id, l);
      for (const l of ensured.labels) next.set(l.id, l);
      for (const l of [...next.values()]) if (removing.has(l.name.toLowerCase())) next.delete(l.id);
      const before = new Set(cur.labels.map((l) => l.id));
      const added = [...next.values()].filter((l) => !before.has(l.id)).map((l) => l.name);
      const removed = cur.labels.filter((l) => !next.has(l.id)).map((l) => l.name);
      if (added.length || removed.length) {
        labelIds = [...next.keys()];
        event({ type: "labels_changed", payload: { added: added.sort(), removed: removed.sort() } });
      }
    }

    if (Object.keys(changes).length) event({ type: "issue_updated", payload: { changes } });
    if (sets.length === 0 && labelIds === null) {
      // Nothing about the issue changed; labels named for the first time still exist now.
      await recordChanges(tx.em, tx.workspace.id, labelChanges(createdLabels));
      return cur.id;
    }

    sets.push("updated_at = now()");
    await sql(tx.em, `update issues set ${sets.join(", ")} where id = ?`, [...params, cur.id]);
    if (labelIds !== null) {
      await sql(tx.em, "delete from issue_labels where issue_id = ? and label_id <> all(?::uuid[])", [
        cur.id,
        labelIds,
      ]);
      await sql(
        tx.em,
        `insert into issue_labels (issue_id, label_id) select ?, unnest(?::uuid[]) on conflict do nothing`,
        [cur.id, labelIds],
      );
    }
    await recordActivities(tx.em, events);
    await recordChanges(tx.em, tx.workspace.id, [
      issueChange(key, "updated"),
      ...labelChanges(createdLabels),
    ]);
    return cur.id;
  });
  return (await loadIssue(scope.em, id))!;
}

// ---- Reads -------------------------------------------------------------------------------------

/** Sub-issues the caller can see, by number, with their state's name. */
async function subIssueRows(scope: WorkspaceScope, issueId: string) {
  const vis = visibleTeamCondition(scope);
  return sql<{
    id: string;
    key: string;
    number: number;
    title: string;
    state_name: string;
    state_type: StateType;
    state_color: string;
  }>(
    scope.em,
    `select i.id, t.key, i.number, i.title, s.name as state_name, s.type as state_type, s.color as state_color
       from issues i join teams t on t.id = i.team_id join workflow_states s on s.id = i.state_id
      where i.parent_id = ? and ${vis.sql}
      order by t.key, i.number`,
    [issueId, ...vis.params],
  );
}

/** One issue with comments (oldest first), sub-issues (by number) and relations from its side. */
export async function getIssueDetail(scope: WorkspaceScope, ref: string): Promise<IssueDetailOut> {
  const key = await resolveIssue(scope, ref);
  const [issue, comments, subIssues, relations] = await Promise.all([
    loadIssue(scope.em, key.id),
    loadComments(scope.em, key.id),
    subIssueRows(scope, key.id),
    relationsOf(scope, key.id),
  ]);
  if (!issue) throw new NotFound(`No issue "${ref}" in this workspace.`);
  return {
    ...issue,
    comments,
    subIssues: subIssues.map((s) => ({
      identifier: `${s.key}-${s.number}`,
      title: s.title,
      state: s.state_name,
    })),
    relations,
  };
}

const ESTIMATE_SCALES: Record<string, [number, string][]> = {
  none: [],
  linear: [1, 2, 3, 4, 5].map((v) => [v, String(v)]),
  fibonacci: [1, 2, 3, 5, 8].map((v) => [v, String(v)]),
  exponential: [1, 2, 4, 8, 16].map((v) => [v, String(v)]),
  tshirt: [
    [1, "XS"],
    [2, "S"],
    [3, "M"],
    [5, "L"],
    [8, "XL"],
  ],
};

/** The options of a team's estimate scale, as `{value, label}`. */
export function estimateOptions(scale: string): { value: number; label: string }[] {
  return (ESTIMATE_SCALES[scale] ?? []).map(([value, label]) => ({ value, label }));
}

interface PageIssueRow {
  id: string;
  identifier: string;
  title: string;
  description: string | null;
  priority: number;
  estimate: number | null;
  state_id: string;
  assignee_id: string | null;
  project_id: string | null;
  cycle_id: string | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
  team_id: string;
  team_key: string;
  team_name: string;
  personal: boolean;
  owner_id: string | null;
  cycles_enabled: boolean;
  estimate_scale: string;
  states: { id: string; name: string; type: StateType; color: string; position: number }[];
  parent: { identifier: string; team: { key: string } } | null;
  labels: { name: string; color: string }[];
}

/**
 * Everything the web issue page renders. Each key is at most one query (run concurrently, outside any
 * transaction); nothing is loaded per row. `media` is always `[]`: this server has no upload storage.
 */
export async function getIssuePageData(scope: WorkspaceScope, ref: string): Promise<IssuePageDataOut> {
  const key = await resolveIssue(scope, ref);
  const em = scope.em;
  const vis = visibleTeamCondition(scope, "pt");
  const issueP = sqlOne<PageIssueRow>(
    em,
    `select i.id, t.key || '-' || i.number as identifier, i.title, i.description, i.priority, i.estimate,
            i.state_id, i.assignee_id, i.project_id, i.cycle_id, i.created_at, i.updated_at, i.completed_at,
            t.id as team_id, t.key as team_key, t.name as team_name, t.personal, t.owner_id, t.cycles_enabled,
            t.estimate_scale,
            (select json_agg(json_build_object('id', s.id, 'name', s.name, 'type', s.type, 'color', s.color,
                                               'position', s.position) order by s.position, s.id)
               from workflow_states s where s.team_id = t.id) as states,
            case when pi.id is not null and ${vis.sql}
                 then json_build_object('identifier', pt.key || '-' || pi.number, 'team', json_build_object('key', pt.key))
            end as parent,
            coalesce((select json_agg(json_build_object('name', l.name, 'color', l.color) order by l.name)
                        from issue_labels il join labels l on l.id = il.label_id where il.issue_id = i.id),
                     '[]') as labels
       from issues i join teams t on t.id = i.team_id
       left join issues pi on pi.id = i.parent_id
       left join teams pt on pt.id = pi.team_id
      where i.id = ?`,
    [...vis.params, key.id],
  );
  // Who may be assigned: the owner of a personal space; otherwise members and admins, and guests who
  // joined the team.
  const membersP = sql<{ id: string; name: string; email: string }>(
    em,
    `select u.id, u.name, u.email
       from memberships m join users u on u.id = m.user_id join teams t on t.id = ?
      where m.workspace_id = ?
        and case when t.personal then u.id = t.owner_id
                 else m.role <> 'guest' or exists (select 1 from team_members tm where tm.team_id = t.id and tm.user_id = u.id)
            end
      order by lower(u.name), u.id`,
    [key.teamId, scope.workspace.id],
  );
  const projectsP = sql<{ id: string; name: string }>(
    em,
    `select p.id, p.name from projects p join project_teams pt on pt.project_id = p.id and pt.team_id = ?
      order by lower(p.name), p.id`,
    [key.teamId],
  );
  const cyclesP = sql<{ id: string; number: number; name: string | null }>(
    em,
    "select id, number, name from cycles where team_id = ? order by number desc",
    [key.teamId],
  );
  const commentsP = loadComments(em, key.id);
  const subIssuesP = subIssueRows(scope, key.id);
  const dvis = visibleTeamCondition(scope, "dt");
  const documentsP = sql<{ id: string; title: string }>(
    em,
    `select d.id, d.title from document_issues di join documents d on d.id = di.document_id
       join teams dt on dt.id = d.team_id
      where di.issue_id = ? and ${dvis.sql}
      order by lower(d.title), d.id`,
    [key.id, ...dvis.params],
  );
  const relationsP = relationsOf(scope, key.id);
  const blockedByOpenP = openBlockersOf(scope, key.id);
  const linksP = sql<{ id: string; url: string; title: string | null }>(
    em,
    "select id, url, title from issue_links where issue_id = ? order by created_at, id",
    [key.id],
  );
  const [issue, members, projects, cycles, comments, subIssues, documents, relations, blockedByOpen, links] =
    await Promise.all([
      issueP,
      membersP,
      projectsP,
      cyclesP,
      commentsP,
      subIssuesP,
      documentsP,
      relationsP,
      blockedByOpenP,
      linksP,
    ]);
  if (!issue) throw new NotFound(`No issue "${ref}" in this workspace.`);
  return {
    issue: {
      id: issue.id,
      identifier: issue.identifier,
      path: `/${scope.workspace.slug}/issue/${issue.identifier}`,
      title: issue.title,
      description: issue.description,
      priority: issue.priority as IssueOut["priority"],
      estimate: issue.estimate,
      stateId: issue.state_id,
      assigneeId: issue.assignee_id,
      projectId: issue.project_id,
      cycleId: issue.cycle_id,
      createdAt: iso(issue.created_at)!,
      updatedAt: iso(issue.updated_at)!,
      completedAt: iso(issue.completed_at),
      team: {
        id: issue.team_id,
        key: issue.team_key,
        name: issue.team_name,
        cyclesEnabled: issue.cycles_enabled,
        states: issue.states ?? [],
      },
      parent: issue.parent,
      labels: issue.labels,
    },
    estimates: estimateOptions(issue.estimate_scale),
    members,
    projects,
    cycles,
    comments: comments.map((c) => ({
      id: c.id,
      body: c.body,
      authorId: c.author.id,
      authorName: c.author.name,
      createdAt: c.createdAt,
      updatedAt: c.updatedAt,
    })),
    subIssues: subIssues.map((s) => ({
      id: s.id,
      team: { key: s.key },
      number: s.number,
      title: s.title,
      state: { name: s.state_name, type: s.state_type, color: s.state_color },
    })),
    documents: documents.map((d) => ({ documentId: d.id, document: { id: d.id, title: d.title } })),
    relations,
    blockedByOpen,
    media: [],
    links,
  };
}

// ---- Links -------------------------------------------------------------------------------------

/** Attaches an absolute http(s) URL to the issue; the same URL twice on one issue is a conflict. */
export async function createIssueLink(
  scope: WorkspaceScope,
  ref: string,
  input: { url: string; title?: string | null },
): Promise<IssueLinkOut> {
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    throw new Invalid("The link must be an absolute http or https URL.", [
      { path: "body.url", message: "not a URL" },
    ]);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new Invalid("The link must be an absolute http or https URL.", [
      { path: "body.url", message: "only http and https URLs" },
    ]);
  return inTransaction(scope, async (tx) => {
    const issue = await resolveIssue(tx, ref);
    // The issue's row lock serialises link creation on it, so the duplicate check cannot race.
    await sql(tx.em, "select id from issues where id = ? for update", [issue.id]);
    const dup = await sqlOne(tx.em, "select 1 from issue_links where issue_id = ? and url = ?", [
      issue.id,
      input.url,
    ]);
    if (dup) throw new Conflict("conflict", `${issue.identifier} already links to ${input.url}.`);
    const id = randomUUID();
    const title = input.title ?? null;
    await sql(
      tx.em,
      "insert into issue_links (id, issue_id, url, title, created_at) values (?, ?, ?, ?, now())",
      [id, issue.id, input.url, title],
    );
    await recordChanges(tx.em, tx.workspace.id, [
      {
        entity: "issue_link",
        action: "created",
        id,
        identifier: issue.identifier,
        teamKey: issue.teamKey,
        teamId: issue.teamId,
      },
    ]);
    return { id, url: input.url, title };
  });
}
