import type { Middleware } from "koa";
import { HttpMethodEnum, koaBody } from "koa-body";
import { Invalid } from "./problem.js";

/**
 * Reads a JSON body (up to 1 MiB) on the methods that carry one. Its failures are the client's: bad JSON
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
