import type { Middleware } from "koa";
import { HttpMethodEnum, koaBody } from "koa-body";
import { Invalid } from "./problem.js";

/** `POST /api/v1/issues/{identifier}/attachments`: left unread here, whatever its `Content-Type`. */
const UPLOAD_PATH = /^\/api\/v1\/issues\/[^/]+\/attachments\/?$/i;

/**
 * Reads a JSON body (up to 1 MiB) on the methods that carry one, except a file upload's. Its failures are the client's: bad JSON
 * is 400, an oversized body 413. Before routing: a preflight carries no body, so CORS comes first.
 */
export function parseBody(): Middleware {
  const parse = koaBody({
    json: true,
    jsonStrict: true,
    jsonLimit: "1mb",
    urlencoded: false,
    text: false,
    multipart: false,
    // The raw text too: a code host's delivery is verified by the HMAC of its bytes (modules/codehost).
    includeUnparsed: true,
    parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
  });
  return async (ctx, next) => {
    // A file upload's body is the file, streamed to the store by its handler (`uploadAttachment`).
    if (ctx.method === "POST" && UPLOAD_PATH.test(ctx.path)) return next();
    let parsed = false;
    try {
      await parse(ctx, async () => {
        parsed = true;
      });
    } catch (err) {
      const e = err as { status?: number; type?: string };
      if (e.status === 413 || e.type === "entity.too.large") throw err;
      throw new Invalid("The request body is not valid JSON.");
    }
    if (parsed) await next();
  };
}
