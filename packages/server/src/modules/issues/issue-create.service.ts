import { randomUUID } from "node:crypto";
import { q, raw } from "../../db/sql-fragment.js";
import { inTransaction } from "../../db/transaction.js";
import { changeEventsSql, changeValues } from "../../events/record-change.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { NotFound } from "../../http/problem.js";
import { isFinished } from "../../rules/state-types.js";
import { visibleTeamCondition } from "../../rules/visibility.js";
import { activityInsertSql } from "../activity/activity.service.js";
import { issueKeyQuery, isUuid, TEAM_ROW_COLUMNS, type TeamRow } from "../shared/resolve.js";
import { type IssueOut, type IssueRow, issueColumns, issueFromRow } from "./issue.serialize.js";
import {
  checkAssignee,
  checkCycle,
  checkProject,
  checkState,
  labelColumns,
  labelInsertCte,
  labelsOf,
  type NamedRefs,
  namedRefColumns,
  type StateColumns,
  shareLockProject,
  stateColumns,
} from "./issue-refs.js";
import { EMPTY, type IssueCreateInput, labelChanges, plannedLabels, runPrepared } from "./issue-write.js";

type CreateRefs = StateColumns & NamedRefs & { team: TeamRow | null };

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
      select ${issueColumns(labelIds.length ? labelIds : undefined)}, ${changes.notify} as notified
        from ins i`,
    );
    return issueFromRow(row!);
  });
}
