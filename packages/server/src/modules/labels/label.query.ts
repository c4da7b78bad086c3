import type { EntityManager } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { sql } from "../../db/sql.js";
import { q, raw } from "../../db/sql-fragment.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { FINISHED_STATE_TYPES_SQL } from "../../rules/state-types.js";

type LabelOut = components["schemas"]["Label"];
type LabelListItemOut = components["schemas"]["LabelListItem"];

/** The workspace's labels by name; with `withCounts`, each label's issues and open issues (`counts=1`). */
export async function listLabels(scope: WorkspaceScope, withCounts: boolean): Promise<LabelListItemOut[]> {
  if (!withCounts) {
    return sql<LabelOut>(
      scope.em,
      q`select id, name, color, description from labels where workspace_id = ${scope.workspace.id} order by lower(name), id`,
    );
  }
  // One aggregate over every team (personal spaces included): admins see the workspace-wide usage.
  return sql<LabelListItemOut>(
    scope.em,
    q`select l.id, l.name, l.color, l.description,
            count(i.id)::int as "issueCount",
            (count(i.id) filter (where i.state_type not in ${raw(FINISHED_STATE_TYPES_SQL)}))::int as "openIssueCount"
       from labels l
       left join issue_labels il on il.label_id = l.id
       left join issues i on i.id = il.issue_id
      where l.workspace_id = ${scope.workspace.id}
      group by l.id
      order by lower(l.name), l.id`,
  );
}

export interface AffectedIssue {
  id: string;
  identifier: string;
  team_id: string;
  team_key: string;
}

/**
 * Locks the issues of this workspace carrying a label, in id order, and returns their ids. An issue that
 * left for another workspace since (with its project, relabelled there) is not among them once the lock is
 * held: a merge or delete then neither labels it, records activity for it here, nor announces it on this
 * workspace's stream. Called with the label rows already locked; an issue write takes its issue first and
 * then labels, so the two can deadlock, and the loser is run again (`http/run-handler.ts`).
 */
export async function lockIssuesCarrying(
  em: EntityManager,
  workspaceId: string,
  labelId: string,
): Promise<string[]> {
  const rows = await sql<{ id: string }>(
    em,
    q`select i.id from issues i
      where i.workspace_id = ${workspaceId} and i.id in (select issue_id from issue_labels where label_id = ${labelId})
      order by i.id
        for update`,
  );
  return rows.map((r) => r.id);
}

/** Takes the label off the issues `held`; the issues, for their change records. */
export function unlinkLabel(em: EntityManager, labelId: string, held: string[]): Promise<AffectedIssue[]> {
  return sql<AffectedIssue>(
    em,
    q`with gone as (delete from issue_labels where label_id = ${labelId} and issue_id = any(${held}::uuid[]) returning issue_id)
     select i.id, t.key || '-' || i.number as identifier, t.id as team_id, t.key as team_key
       from gone g join issues i on i.id = g.issue_id join teams t on t.id = i.team_id`,
  );
}

/** Puts label `to` on the issues `held` that carry `from`; the issues that did not carry `to` yet. */
export async function copyLabelLinks(
  em: EntityManager,
  from: string,
  to: string,
  held: string[],
): Promise<string[]> {
  const moved = await sql<{ issue_id: string }>(
    em,
    q`insert into issue_labels (issue_id, label_id)
     select issue_id, ${to} from issue_labels where label_id = ${from} and issue_id = any(${held}::uuid[])
     on conflict do nothing
     returning issue_id`,
  );
  return moved.map((r) => r.issue_id);
}

/** Takes label `from` off the issues `held`, touching each; the issues, by team key and number. */
export function dropLabelLinks(em: EntityManager, from: string, held: string[]): Promise<AffectedIssue[]> {
  return sql<AffectedIssue>(
    em,
    q`with gone as (delete from issue_labels where label_id = ${from} and issue_id = any(${held}::uuid[]) returning issue_id),
          touched as (update issues i set updated_at = now() from gone g where i.id = g.issue_id
                      returning i.id, i.number, i.team_id)
     select x.id, t.key || '-' || x.number as identifier, t.id as team_id, t.key as team_key
       from touched x join teams t on t.id = x.team_id
      order by t.key, x.number`,
  );
}
