import { randomUUID } from "node:crypto";
import { pipeline, Transform } from "node:stream";
import { inTransaction } from "../../db/transaction.js";
import { recordChanges } from "../../events/record-change.query.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { HttpProblem, Invalid } from "../../http/problem.js";
import { authorize } from "../../rules/permissions.js";
import { type IssueKey, resolveIssue } from "../shared/resolve.query.js";
import { Attachment } from "./attachment.entity.js";
import {
  deleteAttachmentRow,
  loadAttachment,
  loadAttachments,
  lockAttachmentOfIssue,
  type MediaOut,
  toMedia,
} from "./attachment.query.js";
import { attachmentStore } from "./attachment-store.js";
import { SNIFF_BYTES, sniff } from "./sniff.js";

const issueChange = (issue: IssueKey) => ({
  identifier: issue.identifier,
  teamKey: issue.teamKey,
  teamId: issue.teamId,
});

const tooLarge = (max: number) =>
  new HttpProblem(
    413,
    "payload_too_large",
    "Payload too large",
    `The file is over this server's upload limit of ${max} bytes.`,
  );

export async function listAttachments(scope: WorkspaceScope, ref: string): Promise<MediaOut[]> {
  const issue = await resolveIssue(scope, ref);
  return (await loadAttachments(scope.em, issue.id)).map((row) => toMedia(scope.config, row));
}

/**
 * Stores the request body as a file of the issue (the contract's `uploadAttachment`): streamed to the
 * store through a counter that refuses the upload past the limit and keeps the first bytes to sniff, so
 * no more than {@link SNIFF_BYTES} of it is ever held in memory. The row is written only once the store
 * holds the file; whatever fails after that removes the file again.
 */
export async function uploadAttachment(
  scope: WorkspaceScope,
  ref: string,
  filename: string,
): Promise<MediaOut> {
  const issue = await resolveIssue(scope, ref);
  const max = scope.config.attachments.maxBytes;
  const req = scope.koa.req;
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > max) throw tooLarge(max);

  let size = 0;
  const head: Buffer[] = [];
  let headBytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > max) return done(tooLarge(max));
      if (headBytes < SNIFF_BYTES) {
        const part = chunk.subarray(0, SNIFF_BYTES - headBytes);
        head.push(Buffer.from(part));
        headBytes += part.length;
      }
      done(null, chunk);
    },
  });
  // `pipeline` carries a failure of the request (a cut connection) into the counter, so the store sees
  // an error and keeps nothing, rather than a body that merely ended early.
  pipeline(req, counter, () => undefined);

  const store = attachmentStore(scope.config);
  const id = randomUUID();
  const key = id;
  try {
    await store.put(key, counter);
  } catch (err) {
    if (err instanceof HttpProblem) throw err;
    throw new Invalid(`The upload broke off before the whole file arrived (${(err as Error).message}).`);
  }
  try {
    if (size === 0) throw new Invalid("The file is empty: send its bytes as the request body.");
    const sniffed = await sniff(Buffer.concat(head));
    await inTransaction(scope, async (tx) => {
      tx.em.create(Attachment, {
        id,
        issue: issue.id,
        uploader: tx.caller.userId,
        filename,
        contentType: sniffed.contentType,
        size,
        width: sniffed.width,
        height: sniffed.height,
        storageKey: key,
      });
      await tx.em.flush();
      await recordChanges(tx.em, tx.workspace.id, [
        { entity: "attachment", action: "created", id, ...issueChange(issue) },
      ]);
    });
  } catch (err) {
    await store.remove(key).catch(() => undefined);
    throw err;
  }
  return toMedia(scope.config, await loadAttachment(scope.em, id));
}

/** Deletes an attachment (its uploader and admins may), then its file; the sweep removes what that missed. */
export async function deleteAttachment(
  scope: WorkspaceScope,
  ref: string,
  attachmentId: string,
): Promise<void> {
  const key = await inTransaction(scope, async (tx) => {
    const issue = await resolveIssue(tx, ref);
    const attachment = await lockAttachmentOfIssue(tx.em, issue.id, attachmentId);
    authorize(tx, "attachment.delete", { uploaderId: attachment.uploaderId });
    await deleteAttachmentRow(tx.em, attachment.id);
    await recordChanges(tx.em, tx.workspace.id, [
      { entity: "attachment", action: "deleted", id: attachment.id, ...issueChange(issue) },
    ]);
    return attachment.storageKey;
  });
  await attachmentStore(scope.config)
    .remove(key)
    .catch((err) =>
      scope.logger.warn("attachment: file not removed", { key, error: (err as Error).message }),
    );
}
