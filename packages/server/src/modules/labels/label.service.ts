import { createHash } from "node:crypto";
import { type EntityManager, LockMode } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { type Change, recordChanges } from "../../events/record-change.query.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { Conflict, fieldPath, guardUnique, Invalid, NotFound } from "../../http/problem.js";
import { type ActivityInput, recordActivities } from "../activity/activity.query.js";
import { isUuid } from "../shared/resolve.query.js";
import { rewriteLabelFilters } from "../views/label-filters.query.js";
import { type ILabel, Label } from "./label.entity.js";
import {
  type AffectedIssue,
  copyLabelLinks,
  dropLabelLinks,
  lockIssuesCarrying,
  unlinkLabel,
} from "./label.query.js";

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
    const issues = await unlinkLabel(em, label.id, held);
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
    const movedIds = new Set(await copyLabelLinks(em, source.id, target.id, held));
    const issues = await dropLabelLinks(em, source.id, held);
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
