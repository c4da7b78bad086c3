import { randomUUID } from "node:crypto";
import { sqlOne } from "../../../db/sql.js";
import { EMPTY, q, raw } from "../../../db/sql-fragment.js";
import { changeEventsSql, changeValues, labelsCreated } from "../../../events/record-change.query.js";
import type { WorkspaceScope } from "../../../http/handler.js";
import { isFinished } from "../../../rules/state-types.js";
import { visibleTeamCondition } from "../../../rules/visibility.js";
import { activityInsertSql } from "../../activity/activity.query.js";
import { issueKeyQuery, isUuid, TEAM_ROW_COLUMNS, type TeamRow } from "../../shared/resolve.query.js";
import type { IssueCreateInput } from "../issue-shape.js";
import { type IssueOut, type IssueRow, issueColumns } from "../issue-shape.js";
import {
  labelColumns,
  labelInsertCte,
  type NamedRefs,
  namedRefColumns,
  type StateColumns,
  shareLockProject,
  stateColumns,
} from "./refs.query.js";

/**
 * The statements of `POST /issues` (create.service.ts checks what they read): one resolving every
 * reference the issue names, one writing it. Both prepared: their few shapes cost more to plan than to
 * run (bench/README.md).
 */

export type CreateRefs = StateColumns & NamedRefs & { team: TeamRow | null };

/**
 * The team (visible to the caller), state, assignee, project, cycle and parent the issue names, and its
 * labels, new ones created. Lock order, as every writer takes them: the project's share lock first, the
 * parent's key-share lock (which inserting the child takes anyway; a move of the parent takes its locks in
 * this order too), then new labels, then (in {@link insertIssue}) the team row.
 */
export async function resolveCreateRefs(
  tx: WorkspaceScope,
  input: IssueCreateInput,
  wanted: Map<string, string> | undefined,
): Promise<CreateRefs> {
  const ws = tx.workspace.id;
  const vis = visibleTeamCondition(tx);
  const parentKey = input.parent != null ? issueKeyQuery(tx, input.parent) : undefined;
  if (input.project != null) await shareLockProject(tx, input.project);
  return (await sqlOne<CreateRefs>(
    tx.em,
    q`with team as (
        select ${raw(TEAM_ROW_COLUMNS)}
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
           ${namedRefColumns(tx, input)},
           ${raw(parentKey ? `(select to_json(p) from parent p join parent_row pr on pr.id = p.id) as "newParent"` : `null as "newParent"`)},
           ${labelColumns(ws, wanted)}
      from (select) as one left join team t on true`,
    { prepare: true },
  ))!;
}

/** What the checks of a create settled. */
export interface CheckedCreate {
  team: TeamRow;
  state: { id: string; name: string; type: IssueOut["state"]["type"] };
  assignee: { id: string } | null;
  project: { id: string } | null;
  cycle: { id: string } | null;
  parentId: string | null;
  labelIds: string[];
  createdLabels: string[];
}

/**
 * The issue numbered next in its team, with its labels, its `issue_created` activity and its change events,
 * read back as the contract's `Issue`. The number comes from bumping the team's counter, which holds the
 * team row's lock until commit: concurrent creates get distinct consecutive numbers, and the counter never
 * goes back, so a number is never handed out twice.
 */
export async function insertIssue(
  tx: WorkspaceScope,
  input: IssueCreateInput,
  c: CheckedCreate,
): Promise<IssueRow> {
  const ws = tx.workspace.id;
  const { team, state, assignee, project, cycle, labelIds } = c;
  const issueId = randomUUID();
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
      ${c.createdLabels.length ? q`union all ${changeValues(labelsCreated(c.createdLabels))}` : EMPTY}`,
  );
  return (await sqlOne<IssueRow>(
    tx.em,
    q`with counter as (
        update teams set issue_counter = issue_counter + 1 where id = ${team.id} returning issue_counter),
      ins as (
        insert into issues (id, workspace_id, team_id, number, title, description, priority, estimate, due_date,
                            state_id, state_type, assignee_id, creator_id, project_id, cycle_id, parent_id,
                            created_at, updated_at, completed_at)
        select ${issueId}, ${ws}, ${team.id}, counter.issue_counter, ${input.title}, ${input.description ?? null},
               ${input.priority ?? 0}, ${input.estimate ?? null}, ${input.dueDate ?? null}::date, ${state.id},
               ${state.type}, ${assignee?.id ?? null}, ${tx.caller.userId}, ${project?.id ?? null},
               ${cycle?.id ?? null}, ${c.parentId}, now(), now(),
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
    select ${issueColumns(labelIds.length ? labelIds : undefined)}, ${changes.notify} as notified
      from ins i`,
    { prepare: true },
  ))!;
}
