import { randomUUID } from "node:crypto";
import type { components } from "@tracker/sdk/schema";
import { lockIssues } from "../../db/locks.js";
import { sql, sqlOne } from "../../db/sql.js";
import { joinSql, q, raw, type SqlFragment } from "../../db/sql-fragment.js";
import { isoSql } from "../../db/sql-time.js";
import { inTransaction } from "../../db/transaction.js";
import { type Change, changeEventsSql, changeValues, recordChanges } from "../../events/record-change.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { Conflict, Invalid, NotFound } from "../../http/problem.js";
import {
  type ActivityInput,
  activityInsertSql,
  type FieldChange,
  type IssueUpdatedField,
  type StateBrief,
  type UserBrief,
} from "../activity/activity.service.js";
import { type CommentOut, commentsJsonSql } from "../comments/comment.service.js";
import {
  type CycleRow,
  type IssueKey,
  issueKeyQuery,
  isUuid,
  type NamedRow,
  resolveIssue,
  type TeamRow,
  visibleTeamCondition,
} from "../shared/resolve.js";
import type { StateType } from "../teams/team.entity.js";
import {
  type IssueOut,
  type IssueRow,
  issueColumns,
  issueFromRow,
  labelNamesSql,
} from "./issue.serialize.js";
import {
  type AssigneeRow,
  assigneeColumn,
  checkAssignee,
  checkCycle,
  checkProject,
  checkState,
  cycleColumn,
  type LabelColumns,
  type LabelRef,
  labelColumns,
  labelInsertCte,
  labelSpellings,
  labelsOf,
  type ProjectRow,
  projectColumn,
  type StateColumns,
  shareLockProject,
  stateColumns,
} from "./issue-refs.js";
import {
  openBlockersJsonSql,
  type RelatedIssueOut,
  type RelationOut,
  relationsJsonSql,
} from "./relation.service.js";

export { DEFAULT_LABEL_COLOR } from "./issue-refs.js";

export type IssueCreateInput = components["schemas"]["IssueCreate"];
export type IssueUpdateInput = components["schemas"]["IssueUpdate"];
export type IssueDetailOut = components["schemas"]["IssueDetail"];
export type IssuePageDataOut = components["schemas"]["IssuePageData"];
export type IssueLinkOut = components["schemas"]["IssueLink"];

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

const labelChanges = (ids: string[]): Change[] =>
  ids.map((id) => ({ entity: "label", action: "created", id }) satisfies Change);

const EMPTY = raw("");

/** Runs a composed statement; one round trip. */
const run = <T>(scope: WorkspaceScope, f: SqlFragment) => sqlOne<T>(scope.em, f.sql, f.params);
/**
 * The same as a prepared statement (see `sql`): for the hot statements of reads and creates, whose few
 * shapes cost more to plan than to run.
 */
const runPrepared = <T>(scope: WorkspaceScope, f: SqlFragment) =>
  sqlOne<T>(scope.em, f.sql, f.params, { prepare: true });

/**
 * Labels named by a write, validated up front (a blank name is 400) but refused only after the other
 * references, in the order the contract checks them.
 */
function plannedLabels(names: string[] | undefined): { wanted?: Map<string, string>; error?: unknown } {
  if (!names?.length) return {};
  try {
    const wanted = labelSpellings(names);
    return wanted.size ? { wanted } : {};
  } catch (error) {
    return { error };
  }
}

// ---- Create ------------------------------------------------------------------------------------

type CreateRefs = StateColumns &
  LabelColumns & {
    team: TeamRow | null;
    newAssignee: AssigneeRow | null;
    newProject: ProjectRow | null;
    newCycle: CycleRow | null;
    newParent: IssueKey | null;
  };

/**
 * Creates an issue numbered next in its team. Four round trips: BEGIN, one statement resolving every
 * reference (taking the parent's lock and creating new labels), one writing the issue with its number,
 * labels, activity and change events and reading it back, COMMIT. The number comes from bumping the team's
 * counter, which holds the team row's lock until commit: concurrent creates get distinct consecutive
 * numbers, and the counter never goes back, so a number is never handed out twice.
 */
export async function createIssue(scope: WorkspaceScope, input: IssueCreateInput): Promise<IssueOut> {
  const planned = plannedLabels(input.labels);
  return inTransaction(scope, async (tx) => {
    const ws = tx.workspace.id;
    const vis = visibleTeamCondition(tx);
    const parentKey = input.parent != null ? issueKeyQuery(tx, input.parent) : undefined;
    const wanted = planned.wanted;
    if (input.project != null) await shareLockProject(tx, input.project);
    // Lock order, as every writer takes them: the project's share lock (above), the parent's key-share lock (which inserting the child takes
    // anyway; a move of the parent takes its locks in this order too), then new labels, then (in the write)
    // the team row.
    const refs = (await runPrepared<CreateRefs>(
      tx,
      q`with team as (
          select t.id, t.key, t.name, t.personal, t.owner_id, t.cycles_enabled, t.cycle_length_weeks, t.estimate_scale
            from teams t
           where t.workspace_id = ${ws} and ${raw(isUuid(input.team) ? "t.id" : "t.key")} = ${input.team} and ${vis})
        ${
          parentKey
            ? q`, parent as (${parentKey}),
          parent_row as (select x.id from issues x where x.id = (select id from parent) and x.workspace_id = ${ws} for key share)`
            : EMPTY
        }
        ${wanted ? q`, ${labelInsertCte(ws, wanted, parentKey ? "parent_row" : undefined)}` : EMPTY}
      select (select to_json(tt) from team tt) as "team",
             ${stateColumns("t.id", input.state)},
             ${input.assignee != null ? assigneeColumn(tx, input.assignee) : raw(`null as "newAssignee"`)},
             ${input.project != null ? projectColumn(tx, input.project) : raw(`null as "newProject"`)},
             ${input.cycle != null ? cycleColumn(input.cycle) : raw(`null as "newCycle"`)},
             ${raw(parentKey ? `(select to_json(p) from parent p join parent_row pr on pr.id = p.id) as "newParent"` : `null as "newParent"`)},
             ${wanted ? labelColumns(ws, wanted) : raw(`null as "labelsCreated", null as "labelsExisting"`)}
        from (select) as one left join team t on true`,
    ))!;

    const team = refs.team;
    if (!team) throw new NotFound(`No team "${input.team}" in this workspace.`);
    const state = checkState(refs, input.state);
    const assignee =
      input.assignee != null ? checkAssignee(tx, refs.newAssignee, input.assignee, team.key) : null;
    const project = input.project != null ? checkProject(refs.newProject, input.project, team.key) : null;
    const cycle = input.cycle != null ? checkCycle(refs.newCycle, input.cycle) : null;
    if (input.parent != null && !refs.newParent)
      throw new NotFound(`No issue "${input.parent}" in this workspace.`);
    if (planned.error) throw planned.error;
    const labels = wanted ? await labelsOf(tx.em, ws, wanted, refs) : { labels: [], created: [] };

    const issueId = randomUUID();
    const labelIds = labels.labels.map((l) => l.id);
    const activity = activityInsertSql([
      {
        workspaceId: ws,
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
    const changes = changeEventsSql(
      "chg",
      ws,
      q`select 'issue'::text, 'created'::text, ${issueId}::text, ${`${team.key}-`}::text || ins.number,
               ${team.key}::text, ${team.id}::text
          from ins
        ${labels.created.length ? q`union all ${changeValues(labelChanges(labels.created))}` : EMPTY}`,
    );
    const row = await runPrepared<IssueRow>(
      tx,
      q`with counter as (
          update teams set issue_counter = issue_counter + 1 where id = ${team.id} returning issue_counter),
        ins as (
          insert into issues (id, workspace_id, team_id, number, title, description, priority, estimate, due_date,
                              state_id, state_type, assignee_id, creator_id, project_id, cycle_id, parent_id,
                              created_at, updated_at, completed_at)
          select ${issueId}, ${ws}, ${team.id}, counter.issue_counter, ${input.title}, ${input.description ?? null},
                 ${input.priority ?? 0}, ${input.estimate ?? null}, ${input.dueDate ?? null}::date, ${state.id},
                 ${state.type}, ${assignee?.id ?? null}, ${tx.caller.userId}, ${project?.id ?? null},
                 ${cycle?.id ?? null}, ${refs.newParent?.id ?? null}, now(), now(),
                 ${raw(isFinished(state.type) ? "now()" : "null")}
            from counter
          returning *),
        ${
          labelIds.length
            ? q`issue_label_ins as (
          insert into issue_labels (issue_id, label_id) select ${issueId}::uuid, unnest(${labelIds}::uuid[])),`
            : EMPTY
        }
        act as (${activity}),
        ${changes.ctes}
      select ${issueColumns(labelIds.length ? labelNamesSql(labelIds) : undefined)}, ${changes.notify} as notified
        from ins i`,
    );
    return issueFromRow(row!);
  });
}

// ---- Update ------------------------------------------------------------------------------------

type CurrentRefs = IssueRow &
  Partial<StateColumns> &
  LabelColumns & {
    key: IssueKey | null;
    parentIdentifier: string | null;
    currentLabels: LabelRef[];
    newAssignee: AssigneeRow | null;
    newProject: ProjectRow | null;
    newCycle: CycleRow | null;
    newParent: IssueKey | null;
    parentLoop: boolean | null;
  };

/**
 * Partial update in one transaction (the issue row locked). Records `state_changed`, `assignee_changed`,
 * `labels_changed` and one `issue_updated` for the other fields; a no-op writes nothing at all. Four round
 * trips: BEGIN, one statement locking the issue and resolving every reference (creating new labels), one
 * writing the changes with their activity and change events and reading the issue back, COMMIT.
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
  const touchesLabels =
    input.labels !== undefined || input.addLabels !== undefined || input.removeLabels !== undefined;
  const planned = plannedLabels([...(input.labels ?? []), ...(input.addLabels ?? [])]);
  const target = issueKeyQuery(scope, ref);
  if (!target) throw new NotFound(`No issue "${ref}" in this workspace.`);
  return inTransaction(scope, async (tx) => {
    const ws = tx.workspace.id;
    const parentKey = input.parent != null ? issueKeyQuery(tx, input.parent) : undefined;
    const wanted = planned.wanted;
    if (input.project != null) await shareLockProject(tx, input.project);
    // The project named (above), then the issue row, then the new parent's key-share lock (still in this
    // workspace: a project moved elsewhere may have taken it), then new labels.
    const cur = (await run<CurrentRefs>(
      tx,
      q`with ${raw(parentKey ? "recursive" : "")} target as (${target}),
        cur as (select i.* from issues i where i.id = (select id from target) and i.workspace_id = ${ws} for update)
        ${
          parentKey
            ? q`, parent as (${parentKey}),
          parent_row as (select x.id from issues x where x.id = (select id from parent) and x.workspace_id = ${ws}
                           for key share),
          descendants(id) as (
            select d.id from issues d where d.parent_id = (select id from cur)
            union
            select x.id from issues x join descendants on x.parent_id = descendants.id)`
            : EMPTY
        }
        ${wanted ? q`, ${labelInsertCte(ws, wanted, "cur")}` : EMPTY}
      select (select to_json(k) from target k) as "key",
             ${issueColumns()},
             (select pt.key || '-' || pi.number from issues pi join teams pt on pt.id = pi.team_id
               where pi.id = i.parent_id) as "parentIdentifier",
             coalesce((select json_agg(json_build_object('id', l.id, 'name', l.name) order by l.name)
                         from issue_labels il join labels l on l.id = il.label_id where il.issue_id = i.id),
                      '[]') as "currentLabels",
             ${input.state !== undefined ? stateColumns("i.team_id", input.state) : raw(`null as "newState"`)},
             ${input.assignee != null ? assigneeColumn(tx, input.assignee) : raw(`null as "newAssignee"`)},
             ${input.project != null ? projectColumn(tx, input.project) : raw(`null as "newProject"`)},
             ${input.cycle != null ? cycleColumn(input.cycle) : raw(`null as "newCycle"`)},
             ${raw(
               parentKey
                 ? `(select to_json(p) from parent p join parent_row pr on pr.id = p.id) as "newParent",
                    (select p.id = i.id or exists (select 1 from descendants d where d.id = p.id) from parent p)
                      as "parentLoop"`
                 : `null as "newParent", null as "parentLoop"`,
             )},
             ${wanted ? labelColumns(ws, wanted) : raw(`null as "labelsCreated", null as "labelsExisting"`)}
        from (select) as one left join cur i on true left join teams t on t.id = i.team_id`,
    ))!;
    if (!cur.key || !cur.id) throw new NotFound(`No issue "${ref}" in this workspace.`);
    const key = cur.key;
    const teamKey = cur.team.key;

    const sets: SqlFragment[] = [];
    const set = (column: string, value: unknown, cast = "") =>
      sets.push(q`${raw(column)} = ${value}${raw(cast)}`);
    const changes: Partial<Record<IssueUpdatedField, FieldChange>> = {};
    const events: ActivityInput[] = [];
    const event = (e: Omit<ActivityInput, "workspaceId" | "issueId" | "actorId">) =>
      events.push({ workspaceId: ws, issueId: cur.id, actorId: tx.caller.userId, ...e } as ActivityInput);

    const plain = [
      ["title", "title", cur.title, input.title],
      ["description", "description", cur.description, input.description],
      ["priority", "priority", cur.priority, input.priority],
      ["estimate", "estimate", cur.estimate, input.estimate],
      ["dueDate", "due_date", cur.dueDate, input.dueDate],
    ] as const;
    for (const [field, column, from, to] of plain) {
      if (to === undefined || to === from) continue;
      set(column, to, column === "due_date" ? "::date" : "");
      changes[field] = { from, to };
    }

    if (input.state !== undefined) {
      const state = checkState(cur as StateColumns, input.state);
      if (state.id !== cur.state.id) {
        set("state_id", state.id);
        set("state_type", state.type);
        if (!isFinished(state.type)) sets.push(raw("completed_at = null"));
        else if (state.type !== cur.state.type) sets.push(raw("completed_at = now()"));
        const from: StateBrief = {
          id: cur.state.id,
          name: cur.state.name,
          type: cur.state.type as StateType,
        };
        event({
          type: "state_changed",
          payload: { from, to: { id: state.id, name: state.name, type: state.type } },
        });
      }
    }

    if (input.assignee !== undefined) {
      const assignee: UserBrief | null =
        input.assignee === null ? null : checkAssignee(tx, cur.newAssignee, input.assignee, teamKey);
      if ((assignee?.id ?? null) !== (cur.assignee?.id ?? null)) {
        set("assignee_id", assignee?.id ?? null);
        const from = cur.assignee ? { id: cur.assignee.id, name: cur.assignee.name } : null;
        event({ type: "assignee_changed", payload: { from, to: assignee } });
      }
    }

    if (input.project !== undefined) {
      const project: NamedRow | null =
        input.project === null ? null : checkProject(cur.newProject, input.project, teamKey);
      if ((project?.id ?? null) !== (cur.project?.id ?? null)) {
        set("project_id", project?.id ?? null);
        changes.project = {
          from: cur.project ? { id: cur.project.id, name: cur.project.name } : null,
          to: project ? { id: project.id, name: project.name } : null,
        };
      }
    }

    if (input.cycle !== undefined) {
      const cycle = input.cycle === null ? null : checkCycle(cur.newCycle, input.cycle);
      if ((cycle?.id ?? null) !== (cur.cycle?.id ?? null)) {
        set("cycle_id", cycle?.id ?? null);
        changes.cycle = {
          from: cur.cycle ? { id: cur.cycle.id, number: cur.cycle.number } : null,
          to: cycle ? { id: cycle.id, number: cycle.number } : null,
        };
      }
    }

    if (input.parent !== undefined) {
      const parent = input.parent === null ? null : cur.newParent;
      if (input.parent !== null && !parent)
        throw new NotFound(`No issue "${input.parent}" in this workspace.`);
      if (parent && cur.parentLoop)
        throw new Invalid(
          `${parent.identifier} cannot be the parent of ${key.identifier}: that would make a loop.`,
          [{ path: "body.parent", message: "may not be the issue itself or one of its sub-issues" }],
        );
      if ((parent?.id ?? null) !== cur.parentId) {
        set("parent_id", parent?.id ?? null);
        changes.parent = { from: cur.parentIdentifier, to: parent?.identifier ?? null };
      }
    }

    if (planned.error) throw planned.error;
    let createdLabels: string[] = [];
    let labelIds: string[] | null = null;
    if (touchesLabels) {
      const ensured = wanted ? await labelsOf(tx.em, ws, wanted, cur) : { labels: [], created: [] };
      createdLabels = ensured.created;
      const removing = new Set((input.removeLabels ?? []).map((n) => n.trim().toLowerCase()));
      const next = new Map<string, LabelRef>();
      if (input.labels === undefined) for (const l of cur.currentLabels) next.set(l.id, l);
      for (const l of ensured.labels) next.set(l.id, l);
      for (const l of [...next.values()]) if (removing.has(l.name.toLowerCase())) next.delete(l.id);
      const before = new Set(cur.currentLabels.map((l) => l.id));
      const added = [...next.values()].filter((l) => !before.has(l.id)).map((l) => l.name);
      const removed = cur.currentLabels.filter((l) => !next.has(l.id)).map((l) => l.name);
      if (added.length || removed.length) {
        labelIds = [...next.keys()];
        event({ type: "labels_changed", payload: { added: added.sort(), removed: removed.sort() } });
      }
    }

    if (Object.keys(changes).length) event({ type: "issue_updated", payload: { changes } });
    if (sets.length === 0 && labelIds === null) {
      // Nothing about the issue changed; labels named for the first time still exist now.
      await recordChanges(tx.em, ws, labelChanges(createdLabels));
      return issueFromRow(cur);
    }

    sets.push(raw("updated_at = now()"));
    const recorded = changeEventsSql(
      "chg",
      ws,
      changeValues([issueChange(key, "updated"), ...labelChanges(createdLabels)]),
    );
    const row = await run<IssueRow>(
      tx,
      q`with upd as (update issues set ${joinSql(sets, ", ")} where id = ${cur.id} returning *),
        ${
          labelIds !== null
            ? q`issue_label_del as (
          delete from issue_labels where issue_id = ${cur.id} and label_id <> all(${labelIds}::uuid[])),
        issue_label_ins as (
          insert into issue_labels (issue_id, label_id) select ${cur.id}::uuid, unnest(${labelIds}::uuid[])
              on conflict do nothing),`
            : EMPTY
        }
        ${events.length ? q`act as (${activityInsertSql(events)}),` : EMPTY}
        ${recorded.ctes}
      select ${issueColumns(labelIds !== null ? labelNamesSql(labelIds) : undefined)}, ${recorded.notify} as notified
        from upd i`,
    );
    return issueFromRow(row!);
  });
}

// ---- Reads -------------------------------------------------------------------------------------

/**
 * A JSON array of the sub-issues (of the issue whose id is the SQL expression `parentId`) the caller can
 * see, ordered by team key and number, each shaped by `json` over `si` (issue), `sit` (team), `sis` (state).
 */
function subIssuesJsonSql(scope: WorkspaceScope, parentId: string, json: string): SqlFragment {
  const vis = visibleTeamCondition(scope, "sit");
  return q`coalesce((select json_agg(${raw(json)} order by sit.key, si.number)
       from issues si join teams sit on sit.id = si.team_id join workflow_states sis on sis.id = si.state_id
      where si.parent_id = ${raw(parentId)} and ${vis}), '[]'::json)`;
}

type IssueDetailRow = IssueRow & Pick<IssueDetailOut, "comments" | "subIssues" | "relations">;

/**
 * One issue with comments (oldest first), sub-issues (by number) and relations from its side, in one
 * statement: the identifier (redirects and visibility included) resolves in a CTE.
 */
export async function getIssueDetail(scope: WorkspaceScope, ref: string): Promise<IssueDetailOut> {
  const target = issueKeyQuery(scope, ref);
  const row =
    target &&
    (await runPrepared<IssueDetailRow>(
      scope,
      q`with target as (${target})
        select ${issueColumns()},
               ${relationsJsonSql(scope, "i.id")} as "relations",
               ${raw(commentsJsonSql("i.id"))} as "comments",
               ${subIssuesJsonSql(
                 scope,
                 "i.id",
                 "json_build_object('identifier', sit.key || '-' || si.number, 'title', si.title, 'state', sis.name)",
               )} as "subIssues"
          from target k join issues i on i.id = k.id`,
    ));
  if (!row) throw new NotFound(`No issue "${ref}" in this workspace.`);
  return { ...issueFromRow(row), comments: row.comments, subIssues: row.subIssues, relations: row.relations };
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

interface PageDataRow {
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
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  team_id: string;
  team_key: string;
  team_name: string;
  cycles_enabled: boolean;
  estimate_scale: string;
  states: { id: string; name: string; type: StateType; color: string; position: number }[] | null;
  parent: { identifier: string; team: { key: string } } | null;
  labels: { name: string; color: string }[];
  members: { id: string; name: string; email: string }[];
  projects: { id: string; name: string }[];
  cycles: { id: string; number: number; name: string | null }[];
  comments: CommentOut[];
  subIssues: {
    id: string;
    key: string;
    number: number;
    title: string;
    state_name: string;
    state_type: StateType;
    state_color: string;
  }[];
  documents: { id: string; title: string }[];
  relations: RelationOut[];
  blockedByOpen: RelatedIssueOut[];
  links: { id: string; url: string; title: string | null }[];
}

/**
 * Everything the web issue page renders, in one statement: the identifier resolves in a CTE and each key
 * is a subquery aggregating its rows to JSON; nothing is loaded per row. `media` is always `[]`: this
 * server has no upload storage.
 */
export async function getIssuePageData(scope: WorkspaceScope, ref: string): Promise<IssuePageDataOut> {
  const target = issueKeyQuery(scope, ref);
  const pvis = visibleTeamCondition(scope, "pt");
  const dvis = visibleTeamCondition(scope, "dt");
  // Who may be assigned: the owner of a personal space; otherwise members and admins, and guests who
  // joined the team.
  const issue =
    target &&
    (await runPrepared<PageDataRow>(
      scope,
      q`with target as (${target})
        select i.id, t.key || '-' || i.number as identifier, i.title, i.description, i.priority, i.estimate,
               i.state_id, i.assignee_id, i.project_id, i.cycle_id, ${raw(isoSql("i.created_at"))} as created_at,
               ${raw(isoSql("i.updated_at"))} as updated_at, ${raw(isoSql("i.completed_at"))} as completed_at,
               t.id as team_id, t.key as team_key, t.name as team_name, t.cycles_enabled, t.estimate_scale,
               (select json_agg(json_build_object('id', s.id, 'name', s.name, 'type', s.type, 'color', s.color,
                                                  'position', s.position) order by s.position, s.id)
                  from workflow_states s where s.team_id = t.id) as states,
               case when pi.id is not null and ${pvis}
                    then json_build_object('identifier', pt.key || '-' || pi.number, 'team', json_build_object('key', pt.key))
               end as parent,
               coalesce((select json_agg(json_build_object('name', l.name, 'color', l.color) order by l.name)
                           from issue_labels il join labels l on l.id = il.label_id where il.issue_id = i.id),
                        '[]') as labels,
               coalesce((select json_agg(json_build_object('id', u.id, 'name', u.name, 'email', u.email)
                                         order by lower(u.name), u.id)
                           from memberships m join users u on u.id = m.user_id
                          where m.workspace_id = ${scope.workspace.id}
                            and case when t.personal then u.id = t.owner_id
                                     else m.role <> 'guest'
                                          or exists (select 1 from team_members tm where tm.team_id = t.id and tm.user_id = u.id)
                                end), '[]') as members,
               coalesce((select json_agg(json_build_object('id', p.id, 'name', p.name) order by lower(p.name), p.id)
                           from projects p join project_teams ptm on ptm.project_id = p.id and ptm.team_id = t.id),
                        '[]') as projects,
               coalesce((select json_agg(json_build_object('id', c.id, 'number', c.number, 'name', c.name)
                                         order by c.number desc)
                           from cycles c where c.team_id = t.id), '[]') as cycles,
               ${raw(commentsJsonSql("i.id"))} as comments,
               ${subIssuesJsonSql(
                 scope,
                 "i.id",
                 `json_build_object('id', si.id, 'key', sit.key, 'number', si.number, 'title', si.title,
                                    'state_name', sis.name, 'state_type', sis.type, 'state_color', sis.color)`,
               )} as "subIssues",
               coalesce((select json_agg(json_build_object('id', d.id, 'title', d.title) order by lower(d.title), d.id)
                           from document_issues di join documents d on d.id = di.document_id
                           join teams dt on dt.id = d.team_id
                          where di.issue_id = i.id and ${dvis}), '[]') as documents,
               ${relationsJsonSql(scope, "i.id")} as relations,
               ${openBlockersJsonSql(scope, "i.id")} as "blockedByOpen",
               coalesce((select json_agg(json_build_object('id', lk.id, 'url', lk.url, 'title', lk.title)
                                         order by lk.created_at, lk.id)
                           from issue_links lk where lk.issue_id = i.id), '[]') as links
          from target k join issues i on i.id = k.id join teams t on t.id = i.team_id
          left join issues pi on pi.id = i.parent_id
          left join teams pt on pt.id = pi.team_id`,
    ));
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
      createdAt: issue.created_at,
      updatedAt: issue.updated_at,
      completedAt: issue.completed_at,
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
    members: issue.members,
    projects: issue.projects,
    cycles: issue.cycles,
    comments: issue.comments.map((c) => ({
      id: c.id,
      body: c.body,
      authorId: c.author.id,
      authorName: c.author.name,
      createdAt: c.createdAt,
      updatedAt: c.updatedAt,
    })),
    subIssues: issue.subIssues.map((s) => ({
      id: s.id,
      team: { key: s.key },
      number: s.number,
      title: s.title,
      state: { name: s.state_name, type: s.state_type, color: s.state_color },
    })),
    documents: issue.documents.map((d) => ({ documentId: d.id, document: { id: d.id, title: d.title } })),
    relations: issue.relations,
    blockedByOpen: issue.blockedByOpen,
    media: [],
    links: issue.links,
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
    await lockIssues(tx.em, tx.workspace.id, [issue]);
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
