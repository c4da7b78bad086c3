import { randomUUID } from "node:crypto";
import { sql } from "../../../db/sql.js";
import { q, raw } from "../../../db/sql-fragment.js";
import { changeEventsSql } from "../../../events/record-change.query.js";
import type { WorkspaceScope } from "../../../http/handler.js";
import { isFinished } from "../../../rules/state-types.js";
import { visibleTeamCondition } from "../../../rules/visibility.js";
import type { UserBrief } from "../../activity/activity.query.js";
import { type ActivityInput, activityInsertSql } from "../../activity/activity.query.js";
import {
  type CycleRow,
  type IssueKey,
  issueKeysQuery,
  isUuid,
  type NamedRow,
  type StateRow,
  TEAM_ROW_COLUMNS,
  type TeamRow,
} from "../../shared/resolve.query.js";
import type { IssueCreateInput } from "../issue-shape.js";
import { type IssueRow, issueColumns } from "../issue-shape.js";
import * as issueRefs from "./refs.query.js";

/**
 * The statements of `POST /issues/batch` (batch.service.ts checks the items between them): the items'
 * references resolved once per distinct combination, the parents, the new labels, then every issue written
 * in one statement. Their text is fixed whatever the number of items (arrays, not lists of values).
 */

/** An item as its checks settled it (batch.service.ts, `checkItem`). */
export interface BatchItem {
  team: TeamRow;
  state: StateRow;
  assignee: UserBrief | null;
  project: NamedRow | null;
  cycle: CycleRow | null;
  parent: IssueKey | null;
}

export type ItemRefs = issueRefs.StateColumns & {
  team: TeamRow | null;
  /** The team's counter as this statement read it, unlocked: numbers above it may be the batch's own. */
  counter: number | null;
  newAssignee: issueRefs.AssigneeRow | null;
  newProject: issueRefs.ProjectRow | null;
  newCycle: { id: string; number: number } | null;
};

/** Step 2: the references of every item, resolved once per distinct combination; one entry per item. */
export async function resolveRefs(tx: WorkspaceScope, inputs: IssueCreateInput[]): Promise<ItemRefs[]> {
  const combos = new Map<string, number>();
  const comboOf = inputs.map((i) => {
    const key = JSON.stringify([i.team, i.state, i.assignee, i.project, i.cycle]);
    if (!combos.has(key)) combos.set(key, combos.size);
    return combos.get(key)!;
  });
  const first = [...combos.values()].map((c) => inputs[comboOf.indexOf(c)]!);
  const rows = first.map((i) => issueRefs.refColumnsRow(tx, i));
  const teams = first.map((i) => i.team);
  const vis = visibleTeamCondition(tx);
  const columns = issueRefs.REF_COLUMNS.map(([name]) => name);
  const arrays = issueRefs.REF_COLUMNS.map(([name, type]) => q`${rows.map((r) => r[name])}::${raw(type)}[]`);
  const resolved = await sql<ItemRefs & { c: number }>(
    tx.em,
    q`select r.c, case when t.id is not null then to_json(t) end as "team",
               (select tc.issue_counter from teams tc where tc.id = t.id) as "counter",
               ${issueRefs.refColumnsFromRow(tx)}
          from unnest(${first.map((_, c) => c)}::int[], ${teams.map((t) => (isUuid(t) ? t : null))}::uuid[],
                      ${teams.map((t) => (isUuid(t) ? null : t))}::text[],
                      ${arrays.reduce((a, b) => q`${a}, ${b}`)})
               as r(c, team_id, team_key, ${raw(columns.join(", "))})
          left join lateral (
            select ${raw(TEAM_ROW_COLUMNS)} from teams t
             where t.workspace_id = ${tx.workspace.id} and (t.id = r.team_id or t.key = r.team_key) and ${vis}) t
            on true`,
    { prepare: true },
  );
  const byCombo = new Map(resolved.map((r) => [r.c, r]));
  return comboOf.map((c) => byCombo.get(c)!);
}

/** Step 3: each named parent the caller sees, key-share locked while still in the workspace, by item. */
export async function resolveParents(
  tx: WorkspaceScope,
  inputs: IssueCreateInput[],
): Promise<Map<number, IssueKey>> {
  const refs = inputs.map((i) => i.parent ?? null);
  if (refs.every((r) => r == null)) return new Map();
  const named = refs.flatMap((r, index) => (r == null ? [] : [{ r, index }]));
  const rows = await sql<IssueKey & { n: number }>(
    tx.em,
    q`with hit as (${issueKeysQuery(
      tx,
      named.map((p) => p.r),
    )}),
        held as (select array_agg(l.id) as ids
                   from (select x.id from issues x
                          where x.id in (select id from hit) and x.workspace_id = ${tx.workspace.id}
                          order by x.id for key share) l)
      select h.n, h.id, h.identifier, h."teamId", h."teamKey", h.number
        from hit h, held where h.id = any(held.ids)`,
  );
  return new Map(rows.map(({ n, ...key }) => [named[n]!.index, key]));
}

export interface BatchLabels {
  /** Per item, its labels' ids in the order it names them. */
  ids: string[][];
  /** Labels this batch created, each with the item that named it first (its change follows that issue's). */
  created: { id: string; item: number }[];
}

/** Step 5: the labels every item names, the new ones created once, with the first spelling in the batch. */
export async function createLabels(
  tx: WorkspaceScope,
  wanted: (Map<string, string> | undefined)[],
): Promise<BatchLabels> {
  const all = new Map<string, string>();
  const firstItem = new Map<string, number>();
  wanted.forEach((w, item) => {
    for (const [lower, name] of w ?? []) {
      if (all.has(lower)) continue;
      all.set(lower, name);
      firstItem.set(lower, item);
    }
  });
  if (all.size === 0) return { ids: wanted.map(() => []), created: [] };
  const ws = tx.workspace.id;
  const row = (
    await sql<Parameters<typeof issueRefs.labelsOf>[3]>(
      tx.em,
      q`with ${issueRefs.labelInsertCte(ws, all)} select ${issueRefs.labelColumns(ws, all)}`,
    )
  )[0]!;
  const { labels, created } = await issueRefs.labelsOf(tx.em, ws, all, row);
  const byLower = new Map([...all.keys()].map((k, n) => [k, labels[n]!]));
  const createdIds = new Set(created);
  return {
    ids: wanted.map((w) => [...(w?.keys() ?? [])].map((k) => byLower.get(k)!.id)),
    created: [...all.keys()]
      .filter((k) => createdIds.has(byLower.get(k)!.id))
      .map((k) => ({ id: byLower.get(k)!.id, item: firstItem.get(k)! })),
  };
}

/**
 * Step 6: the one statement that numbers and writes every issue. `locked` takes the teams' number locks in
 * id order before `counter` bumps each team once by its count (the number lock of create.query.ts,
 * taken once per team); an item's number is its team's counter before the bump plus its rank among the
 * batch's items of that team.
 */
export async function writeIssues(
  tx: WorkspaceScope,
  inputs: IssueCreateInput[],
  items: BatchItem[],
  labels: BatchLabels,
): Promise<IssueRow[]> {
  const ws = tx.workspace.id;
  const ids = inputs.map(() => randomUUID());
  const perTeam = new Map<string, number>();
  const ranks = items.map((it) => {
    const rank = (perTeam.get(it.team.id) ?? 0) + 1;
    perTeam.set(it.team.id, rank);
    return rank;
  });
  const teamIds = [...perTeam.keys()].sort();
  const activity = activityInsertSql(
    items.map(
      (it, n): ActivityInput => ({
        workspaceId: ws,
        issueId: ids[n]!,
        actorId: tx.caller.userId,
        type: "issue_created",
        payload: {
          title: inputs[n]!.title,
          team: { id: it.team.id, key: it.team.key, name: it.team.name },
          state: { id: it.state.id, name: it.state.name, type: it.state.type },
        },
      }),
    ),
  );
  const labelRows = labels.ids.flatMap((labelIds, n) => labelIds.map((label) => [ids[n]!, label] as const));
  const changes = changeEventsSql(
    "chg",
    ws,
    q`select u.entity, u.action, u.entity_id, u.identifier, u.team_key, u.team_id
        from (select 'issue'::text as entity, 'created'::text as action, x.id::text as entity_id,
                     c.key || '-' || (c.base + x.rank) as identifier, c.key::text as team_key,
                     x.team_id::text as team_id, x.ord, 0 as sub
                from item x join counter c on c.id = x.team_id
              union all
              select 'label', 'created', l.id::text, null, null, null, l.item + 1, l.sub
                from unnest(${labels.created.map((c) => c.id)}::uuid[], ${labels.created.map((c) => c.item)}::int[])
                     with ordinality as l(id, item, sub)) u
       order by u.ord, u.sub`,
  );
  const rows = await sql<IssueRow>(
    tx.em,
    q`with locked as materialized (
          select id from teams where id = any(${teamIds}::uuid[]) order by id for update),
        counter as (
          update teams t set issue_counter = t.issue_counter + c.n
            from unnest(${teamIds}::uuid[], ${teamIds.map((id) => perTeam.get(id)!)}::int[]) as c(id, n)
           where t.id = c.id and (select count(*) from locked) > 0
          returning t.id, t.key, t.issue_counter - c.n as base),
        item as (
          select * from unnest(${ids}::uuid[], ${items.map((it) => it.team.id)}::uuid[], ${ranks}::int[],
                               ${inputs.map((i) => i.title)}::text[], ${inputs.map((i) => i.description ?? null)}::text[],
                               ${inputs.map((i) => i.priority ?? 0)}::int[], ${inputs.map((i) => i.estimate ?? null)}::int[],
                               ${inputs.map((i) => i.dueDate ?? null)}::date[], ${items.map((it) => it.state.id)}::uuid[],
                               ${items.map((it) => it.state.type)}::text[], ${items.map((it) => it.assignee?.id ?? null)}::uuid[],
                               ${items.map((it) => it.project?.id ?? null)}::uuid[], ${items.map((it) => it.cycle?.id ?? null)}::uuid[],
                               ${items.map((it) => it.parent?.id ?? null)}::uuid[],
                               ${items.map((it) => isFinished(it.state.type))}::boolean[])
                 with ordinality as x(id, team_id, rank, title, description, priority, estimate, due_date, state_id,
                                      state_type, assignee_id, project_id, cycle_id, parent_id, finished, ord)),
        ins as (
          insert into issues (id, workspace_id, team_id, number, title, description, priority, estimate, due_date,
                              state_id, state_type, assignee_id, creator_id, project_id, cycle_id, parent_id,
                              created_at, updated_at, completed_at)
          select x.id, ${ws}, x.team_id, c.base + x.rank, x.title, x.description, x.priority, x.estimate, x.due_date,
                 x.state_id, x.state_type, x.assignee_id, ${tx.caller.userId}, x.project_id, x.cycle_id, x.parent_id,
                 now(), now(), case when x.finished then now() end
            from item x join counter c on c.id = x.team_id
           order by x.ord
          returning *),
        lab as (
          select * from unnest(${labelRows.map((r) => r[0])}::uuid[], ${labelRows.map((r) => r[1])}::uuid[])
                   as l(issue_id, label_id)),
        ${labelRows.length ? raw("issue_label_ins as (insert into issue_labels (issue_id, label_id) select issue_id, label_id from lab),") : raw("")}
        act as (${activity}),
        ${changes.ctes}
      select ${issueColumns({ writtenIn: "lab" })}, ${changes.notify} as notified
        from ins i join item x on x.id = i.id
       order by x.ord`,
    { prepare: true },
  );
  return rows;
}
