import { lockIssues } from "../../db/locks.js";
import { type Change, recordChanges } from "../../events/record-change.query.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { authorize } from "../../rules/permissions.js";
import { resolveIssues, resolveTeam } from "../shared/resolve.query.js";
import { Document, DocumentIssue } from "./document.entity.js";
import {
  type DocumentOut,
  issueChanges,
  linkedIssues,
  lockDocument,
  readDocument,
  relinkDocument,
} from "./document.query.js";

export async function createDocument(
  scope: WorkspaceScope,
  input: { title: string; team: string; content?: string | null; issues?: string[] },
): Promise<DocumentOut> {
  const team = await resolveTeam(scope, input.team);
  const issues = await resolveIssues(scope, input.issues ?? []);
  return scope.em.transactional(async (em) => {
    await lockIssues(em, scope.workspace.id, issues, "key share");
    const document = em.create(Document, {
      workspace: scope.workspace.id,
      team: team.id,
      title: input.title,
      content: input.content ?? null,
      creator: scope.caller.userId,
    });
    for (const issueId of new Set(issues.map((i) => i.id)))
      em.create(DocumentIssue, { document, issue: issueId });
    await em.flush();
    const id = document.id;
    await recordChanges(em, scope.workspace.id, [
      { entity: "document", action: "created", id, teamKey: team.key, teamId: team.id },
      ...(await issueChanges(
        em,
        issues.map((i) => i.id),
      )),
    ]);
    return readDocument(scope, em, id);
  });
}

export async function updateDocument(
  scope: WorkspaceScope,
  id: string,
  input: { title?: string; team?: string; content?: string | null; issues?: string[] },
): Promise<DocumentOut> {
  const team = input.team !== undefined ? await resolveTeam(scope, input.team) : undefined;
  const wanted = input.issues !== undefined ? await resolveIssues(scope, input.issues) : undefined;
  return scope.em.transactional(async (em) => {
    const doc = await lockDocument(scope, em, id);
    const changes: Change[] = [];
    if (wanted !== undefined) {
      await lockIssues(em, scope.workspace.id, wanted, "key share");
      const wantedIds = [...new Set(wanted.map((i) => i.id))];
      changes.push(...(await issueChanges(em, await relinkDocument(em, doc.id, wantedIds))));
    }
    // Already locked by lockDocument.
    const document = await em.findOneOrFail(Document, doc.id);
    em.assign(
      document,
      { title: input.title, team: team?.id, content: input.content, updatedAt: new Date() },
      { ignoreUndefined: true },
    );
    await em.flush();
    changes.unshift({
      entity: "document",
      action: "updated",
      id: doc.id,
      teamKey: team?.key ?? doc.team_key,
      teamId: team?.id ?? doc.team_id,
    });
    await recordChanges(em, scope.workspace.id, changes);
    return readDocument(scope, em, doc.id);
  });
}

export async function deleteDocument(scope: WorkspaceScope, id: string): Promise<void> {
  await scope.em.transactional(async (em) => {
    const doc = await lockDocument(scope, em, id);
    authorize(scope, "document.delete", { creatorId: doc.creator_id });
    const unlinked = await issueChanges(em, await linkedIssues(em, doc.id));
    await em.nativeDelete(Document, doc.id);
    await recordChanges(em, scope.workspace.id, [
      { entity: "document", action: "deleted", id: doc.id, teamKey: doc.team_key, teamId: doc.team_id },
      ...unlinked,
    ]);
  });
}
