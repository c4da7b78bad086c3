import { handle, inWorkspace, OK } from "../../http/handler.js";
import { NotFound } from "../../http/problem.js";
import { findDownload } from "./attachment.query.js";
import * as attachments from "./attachment.service.js";
import { attachmentStore } from "./attachment-store.js";
import { validSignature } from "./signed-url.js";
import { servedInline } from "./sniff.js";

export const attachmentHandlers = [
  handle("listAttachments", async (s, { params }) => ({
    status: 200,
    body: { attachments: await attachments.listAttachments(inWorkspace(s), params.identifier) },
  })),

  handle("uploadAttachment", async (s, { params, query }) => ({
    status: 201,
    body: {
      attachment: await attachments.uploadAttachment(inWorkspace(s), params.identifier, query.filename),
    },
  })),

  handle("deleteAttachment", async (s, { params }) => {
    await attachments.deleteAttachment(inWorkspace(s), params.identifier, params.attachmentId);
    return { status: 200, body: OK };
  }),

  /**
   * The bytes, streamed from the store, for a valid signed URL (`signed-url.ts`). What could run in a
   * browser is never served inline (`sniff.ts`), and nothing is sniffed again by the browser.
   */
  handle("downloadAttachment", async (s, { params, query }) => {
    const file = validSignature(s.config, params.attachmentId, query.expires, query.signature)
      ? await findDownload(s.em, params.attachmentId)
      : undefined;
    if (!file)
      throw new NotFound(
        `No file ${params.attachmentId}, or its link has expired: read the issue again for a fresh one.`,
      );
    const ctx = s.koa;
    // The bytes under an id never change: the id is the tag, and a browser asking again gets a 304.
    const etag = `"${params.attachmentId}"`;
    ctx.set("ETag", etag);
    ctx.set("Cache-Control", "private, max-age=3600");
    // 304 is no success status of `Handler`'s typing (it counts JSON answers); the contract lists it.
    if (ctx.get("if-none-match") === etag) return { status: 304, body: undefined } as never;
    const body = await attachmentStore(s.config)
      .get(file.storageKey)
      .catch(() => {
        throw new NotFound("The file is gone.");
      });
    const disposition = servedInline(file.contentType) ? "inline" : "attachment";
    ctx.set("X-Content-Type-Options", "nosniff");
    ctx.set("Content-Security-Policy", "default-src 'none'; sandbox");
    ctx.set("Content-Disposition", `${disposition}; filename*=UTF-8''${encodeURIComponent(file.filename)}`);
    ctx.type = file.contentType;
    ctx.length = file.size;
    // Sent as stored: files are mostly compressed already (images, archives), and compressing 25 MB on the
    // way out costs the server far more than the bytes it saves (bench/attachments.ts).
    ctx.compress = false;
    return { status: 200, body: body as never };
  }),
];
