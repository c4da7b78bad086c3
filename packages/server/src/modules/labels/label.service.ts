import { createHash } from "node:crypto";
import { type EntityManager, LockMode } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { sql } from "../../db/sql.js";
import { q, raw } from "../../db/sql-fragment.js";
import { type Change, recordChanges } from "../../events/record-change.query.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { Conflict, fieldPath, guardUnique, Invalid, NotFound } from "../../http/problem.js";
import { FINISHED_STATE_TYPES_SQL } from "../../rules/state-types.js";
import { type ActivityInput, recordActivities } from "../activity/activity.query.js";
import { isUuid } from "../shared/resolve.query.js";
import { rewriteLabelFilters } from "../views/label-filters.query.js";
import { type ILabel, Label } from "./label.entity.js";

export type LabelOut = components["schemas"]["Label"];
export type LabelListItemOut = components["schemas"]["LabelListItem"];

const labelOut = (label: ILabel): LabelOut => ({
  id: label.id,
  name: label.name,
  color: label.color,
  description: label.description ?? null,
});

/** Colors a label gets when none is given: picked from the name, so the same name always looks the same. */
const PALETTE = [
  "#5e6ad2",
  "#26b5ce",
  "#0f783c",
  "#4cb782",
  "#f2c94c",
  "#f2994a",
  "#eb5757",
  "#bb87fc",
  "#95a2b3",
  "#db6e1f",
];

export function colorFor(name: string): string {
  const digest = createHash("sha1").update(name.trim().toLowerCase()).digest();
  return PALETTE[digest[0]! % PALETTE.length]!;
}

/** Runs `work`, turning the unique index on label names into 409 `label_name_taken`. */
const guardLabelName = <T>(name: string, work: () => Promise<T>) =>
  guardUnique(work, {
    labels_workspace_lower_name_unique: () =>
      new Conflict(
        "label_name_taken",
        `Another label is already named "${name}" (names are unique regardless of case): merge into it instead.`,
      ),
  });

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

/**
 * Locks the issues of this workspace carrying a label, in id order, and returns their ids. An issue that
 * left for another workspace since (with its project, relabelled there) is not among them once the lock is
 * held: a merge or delete then neither labels it, records activity for it here, nor announces it on this
 * workspace's stream. Called with the label rows already locked; an issue write takes its issue first and
 * then labels, so the two can deadlock, and the loser is run again (`http/app.ts`).
 */
async function lockIssuesCarrying(
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

/**
 * A label of the workspace by id, or by name (case-insensitive). With `lock` the row is locked for the
 * rest of the transaction, so a concurrent rename, merge or delete of the same label waits.
 */
export async function findLabel(
  em: EntityManager,
  workspaceId: string,
  ref: string,
  lock = false,
): Promise<ILabel> {
  const qb = em.createQueryBuilder(Label).where({ workspace: workspaceId });
  if (isUuid(ref)) qb.andWhere({ id: ref });
  else qb.andWhere("lower(name) = lower(?)", [ref]);
  if (lock) qb.setLockMode(LockMode.PESSIMISTIC_WRITE);
  const label = await qb.getSingleResult();
  if (!label) throw new NotFound(`No label "${ref}" in this workspace.`);
  return label;
}

export async function createLabel(
  scope: WorkspaceScope,
  input: { name: string; color?: string; description?: string | null },
): Promise<LabelOut> {
  const name = input.name.trim();
  if (!name)
    throw new Invalid("A label needs a name.", [
      { path: fieldPath("body", "name"), message: "must not be blank" },
    ]);
  return scope.em.transactional(async (em) => {
    // The unique index on (workspace, lower(name)) decides, so two concurrent creates cannot both win.
    const label = em.create(Label, {
      workspace: scope.workspace.id,
      name,
      color: input.color ?? colorFor(name),
      description: input.description ?? null,
    });
    await guardLabelName(name, () => em.flush());
    await recordChanges(em, scope.workspace.id, [{ entity: "label", action: "created", id: label.id }]);
    return labelOut(label);
  });
}

export async function updateLabel(
  scope: WorkspaceScope,
  ref: string,
  input: { name?: string; color?: string; description?: string | null },
): Promise<LabelOut> {
  const name = input.name?.trim();
  if (input.name !== undefined && !name)
    throw new Invalid("A label needs a name.", [
      { path: fieldPath("body", "name"), message: "must not be blank" },
    ]);
  return scope.em.transactional(async (em) => {
    const label = await findLabel(em, scope.workspace.id, ref, true);
    const before = label.name;
    em.assign(
      label,
      { name, color: input.color, description: input.description, updatedAt: new Date() },
      { ignoreUndefined: true },
    );
    await guardLabelName(name!, () => em.flush());
    const changes: Change[] = [{ entity: "label", action: "updated", id: label.id }];
    if (name !== undefined && name !== before) {
      changes.push(...(await rewriteLabelFilters(em, scope.workspace.id, before, name)));
    }
    await recordChanges(em, scope.workspace.id, changes);
    return labelOut(label);
  });
}

interface AffectedIssue {
  id: string;
  identifier: string;
  team_id: string;
  team_key: string;
}

function issueChanges(issues: AffectedIssue[]): Change[] {
  return issues.map((i) => ({
    entity: "issue",
    action: "updated",
    id: i.id,
    identifier: i.identifier,
    teamKey: i.team_key,
    teamId: i.team_id,
  }));
}

export async function deleteLabel(scope: WorkspaceScope, ref: string): Promise<void> {
  await scope.em.transactional(async (em) => {
    const label = await findLabel(em, scope.workspace.id, ref, true);
    // The label's issue links go with it (and no activity is recorded, per the contract); the issues
    // still change, so the live stream hears of each.
    const held = await lockIssuesCarrying(em, scope.workspace.id, label.id);
    const issues = await sql<AffectedIssue>(
      em,
      q`with gone as (delete from issue_labels where label_id = ${label.id} and issue_id = any(${held}::uuid[]) returning issue_id)
       select i.id, t.key || '-' || i.number as identifier, t.id as team_id, t.key as team_key
         from gone g join issues i on i.id = g.issue_id join teams t on t.id = i.team_id`,
    );
    const filterChanges = await rewriteLabelFilters(em, scope.workspace.id, label.name, null);
    await em.nativeDelete(Label, label.id);
    await recordChanges(em, scope.workspace.id, [
      { entity: "label", action: "deleted", id: label.id },
      ...issueChanges(issues),
      ...filterChanges,
    ]);
  });
}

export async function mergeLabel(
  scope: WorkspaceScope,
  ref: string,
  into: string,
): Promise<{ label: LabelOut; moved: number; collapsed: number }> {
  return scope.em.transactional(async (em) => {
    const sourceRef = await findLabel(em, scope.workspace.id, ref);
    const targetRef = await findLabel(em, scope.workspace.id, into);
    if (sourceRef.id === targetRef.id) {
      throw new Invalid("A label cannot be merged into itself.", [
        { path: fieldPath("body", "into"), message: "names the label being merged" },
      ]);
    }
    // Lock both rows in id order, so two merges over the same pair cannot deadlock.
    const locked = await em.find(
      Label,
      { id: { $in: [sourceRef.id, targetRef.id] } },
      { orderBy: { id: "asc" }, lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    const source = locked.find((l) => l.id === sourceRef.id);
    const target = locked.find((l) => l.id === targetRef.id);
    if (!source || !target) throw new NotFound("The label was deleted meanwhile.");

    const held = await lockIssuesCarrying(em, scope.workspace.id, source.id);
    const moved = await sql<{ issue_id: string }>(
      em,
      q`insert into issue_labels (issue_id, label_id)
       select issue_id, ${target.id} from issue_labels where label_id = ${source.id} and issue_id = any(${held}::uuid[])
       on conflict do nothing
       returning issue_id`,
    );
    const movedIds = new Set(moved.map((r) => r.issue_id));
    const issues = await sql<AffectedIssue>(
      em,
      q`with gone as (delete from issue_labels where label_id = ${source.id} and issue_id = any(${held}::uuid[]) returning issue_id),
            touched as (update issues i set updated_at = now() from gone g where i.id = g.issue_id
                        returning i.id, i.number, i.team_id)
       select x.id, t.key || '-' || x.number as identifier, t.id as team_id, t.key as team_key
         from touched x join teams t on t.id = x.team_id
        order by t.key, x.number`,
    );
    const events: ActivityInput[] = issues.map((i) => ({
      workspaceId: scope.workspace.id,
      issueId: i.id,
      actorId: scope.caller.userId,
      type: "labels_changed",
      payload: {
        added: movedIds.has(i.id) ? [target.name] : [],
        removed: [source.name],
        mergedFrom: source.name,
      },
    }));
    await recordActivities(em, events);
    const filterChanges = await rewriteLabelFilters(em, scope.workspace.id, source.name, target.name);
    await em.nativeDelete(Label, source.id);
    await recordChanges(em, scope.workspace.id, [
      { entity: "label", action: "deleted", id: source.id },
      { entity: "label", action: "updated", id: target.id },
      ...issueChanges(issues),
      ...filterChanges,
    ]);
    return { label: labelOut(target), moved: movedIds.size, collapsed: issues.length - movedIds.size };
  });
}
