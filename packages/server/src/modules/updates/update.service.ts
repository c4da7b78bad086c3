import { holdInWorkspace, lockIssues } from "../../db/locks.js";
import { iso } from "../../db/sql-time.js";
import { recordChanges } from "../../events/record-change.query.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { fieldPath, Invalid, NotFound } from "../../http/problem.js";
import { findInitiative, queryInitiatives } from "../initiatives/initiative.query.js";
import { findProject, projectById } from "../projects/project.query.js";
import { resolveIssues, resolveTeam } from "../shared/resolve.query.js";
import { StatusUpdateIssue } from "./status-update.entity.js";
import {
  activeCycleHealth,
  completedSince,
  createdAt,
  type Health,
  insertStatusUpdate,
  latestUpdate,
  type StatusUpdateOut,
  type Subject,
  selectUpdates,
} from "./update.query.js";

export interface SubjectQuery {
  team?: string;
  project?: string;
  initiative?: string;
}

/**
 * Exactly one of team, project, initiative (400 otherwise, naming them in `part` of the request), resolved
 * in the caller's workspace.
 */
export async function resolveSubject(
  scope: WorkspaceScope,
  named: SubjectQuery,
  part: "query" | "body" = "query",
): Promise<Subject> {
  const given = (["team", "project", "initiative"] as const).filter(
    (k) => named[k] !== undefined && named[k] !== "",
  );
  if (given.length !== 1) {
    throw new Invalid(
      given.length === 0
        ? "Name the subject: give exactly one of team, project or initiative."
        : `Give exactly one of team, project or initiative, not ${given.join(" and ")}.`,
      (given.length ? given : ["team", "project", "initiative"]).map((k) => ({
        path: fieldPath(part, k),
        message: "exactly one of team, project, initiative is required",
      })),
    );
  }
  const kind = given[0]!;
  if (kind === "team") {
    const team = await resolveTeam(scope, named.team!);
    const created = await createdAt(scope.em, kind, team.id);
    return { kind, column: "team_id", id: team.id, teamKey: team.key, createdAt: created };
  }
  if (kind === "project") {
    // findProject applies who sees a project (rules/visibility.ts: through its teams).
    const project = await findProject(scope, named.project!);
    const created = await createdAt(scope.em, kind, project.id);
    return { kind, column: "project_id", id: project.id, teamKey: null, createdAt: created };
  }
  // findInitiative applies who sees an initiative (rules/visibility.ts: guests, through their projects).
  const initiative = await findInitiative(scope, named.initiative!);
  const created = await createdAt(scope.em, kind, initiative.id);
  return { kind, column: "initiative_id", id: initiative.id, teamKey: null, createdAt: created };
}

/**
 * The subject's health now (the contract's `Health` schema). Projects and initiatives: exactly as
 * their lists show it (the projects and initiatives modules compute it). Teams: the active cycle's issues,
 * its start day to its end day, by the same SQL rule; `on_track` without an active cycle.
 */
export async function subjectHealth(scope: WorkspaceScope, subject: Subject): Promise<Health> {
  if (subject.kind === "project") return (await projectById(scope, subject.id)).health;
  if (subject.kind === "initiative") {
    const { initiatives } = await queryInitiatives(scope, { ids: [subject.id] });
    return initiatives[0]?.health ?? "on_track";
  }
  return activeCycleHealth(scope.em, subject.id);
}

export async function listUpdates(scope: WorkspaceScope, named: SubjectQuery): Promise<StatusUpdateOut[]> {
  const subject = await resolveSubject(scope, named);
  return selectUpdates(scope, scope.em, subject);
}

export async function createUpdate(
  scope: WorkspaceScope,
  input: SubjectQuery & { title: string; content: string; issues?: string[] },
): Promise<StatusUpdateOut> {
  const subject = await resolveSubject(scope, input, "body");
  const issues = await resolveIssues(scope, input.issues ?? []);
  const health = await subjectHealth(scope, subject);
  return scope.em.transactional(async (em) => {
    // The subject must still be here once locked: a project or initiative may have been moved to another
    // workspace since it was resolved.
    const table = ({ team: "teams", project: "projects", initiative: "initiatives" } as const)[subject.kind];
    const held = await holdInWorkspace(em, table, scope.workspace.id, [subject.id], "key share");
    if (!held.has(subject.id)) throw new NotFound(`No ${subject.kind} "${subject.id}" in this workspace.`);
    await lockIssues(em, scope.workspace.id, issues, "key share");
    const id = await insertStatusUpdate({ ...scope, em }, subject, { ...input, health });
    for (const issueId of new Set(issues.map((i) => i.id)))
      em.create(StatusUpdateIssue, { update: id, issue: issueId });
    await em.flush();
    await recordChanges(em, scope.workspace.id, [
      {
        entity: "update",
        action: "created",
        id,
        teamKey: subject.teamKey,
        teamId: subject.kind === "team" ? subject.id : null,
      },
    ]);
    return (await selectUpdates(scope, em, { id }))[0]!;
  });
}

export interface UpdateCandidatesOut {
  since: { update: string | null; at: string };
  issues: {
    identifier: string;
    title: string;
    description: string | null;
    completedAt: string;
    assignee: string | null;
    project: string | null;
    labels: string[];
  }[];
}

export async function getUpdateCandidates(
  scope: WorkspaceScope,
  named: SubjectQuery,
): Promise<UpdateCandidatesOut> {
  const subject = await resolveSubject(scope, named);
  const latest = await latestUpdate(scope.em, subject);
  const at = latest?.created_at ?? subject.createdAt;
  const rows = await completedSince(scope, subject, latest?.id ?? null);
  return {
    since: { update: latest?.id ?? null, at: iso(at)! },
    issues: rows.map((r) => ({
      identifier: r.identifier,
      title: r.title,
      description: r.description,
      completedAt: iso(r.completed_at)!,
      assignee: r.assignee,
      project: r.project,
      labels: r.labels,
    })),
  };
}
