import { createHash } from "node:crypto";
import { Stream } from "node:stream";
import type { Context } from "koa";
import { JsonText } from "./handler.js";
import type { OperationStep } from "./operation-call.js";
import type { RateLimiter } from "./rate-limit.js";

/**
 * The contract's "Conditional requests": every successful read (`GET`) carries an `ETag`, the hash of the
 * JSON it answers, and `Cache-Control: private, no-cache` (a browser keeps it and asks again each time). A
 * read whose `If-None-Match` names the current tag is answered `304 Not Modified` with no body, and is not
 * counted against the key's rate limit, as GitHub's API does.
 *
 * The tag is of the answer's bytes, so it is never wrong (whatever changed, a different answer has a
 * different tag) and says nothing a caller could not read: a caller who sends another's tag gets a 304
 * only for the answer it would have received in full. What a 304 saves is the bytes on the wire and the
 * client's parsing, not the statement (bench/README.md measures both).
 *
 * A read may tag itself instead (`setVersionTag`), from versions the database keeps of what its answer
 * depends on, and then answer a request naming that tag without running its statement at all
 * (`NOT_MODIFIED`): the issue list (`modules/issues/list/revalidate.query.ts`).
 */
export function conditional(limiter: RateLimiter): OperationStep {
  return async (call, next) => {
    if (call.op.method !== "get") return next();
    await next();
    const result = call.result;
    // The event stream answers by itself (no result); only a full 200 has a representation to tag.
    if (result?.status !== 200 || call.ctx.respond === false) return;
    // A file streamed (`downloadAttachment`) tags itself: its bytes never change under its id.
    if (result.body instanceof Stream) return;
    const preset = call.ctx.state[VERSION_TAG] as string | undefined;
    const text =
      preset !== undefined && result.body instanceof JsonText
        ? ""
        : result.body instanceof JsonText
          ? result.body.text
          : JSON.stringify(result.body);
    const etag = preset ?? tagOf(text);
    call.ctx.set("ETag", etag);
    call.ctx.set("Cache-Control", "private, no-cache");
    if (ifNoneMatch(call.ctx.get("if-none-match"), etag)) {
      call.result = { status: 304, body: undefined };
      if (call.scope.caller) limiter.giveBack(call.scope.caller.keyId);
    } else if (!(result.body instanceof JsonText)) {
      // Serialised once: the text hashed is the text sent.
      call.result = { status: 200, body: new JsonText(text) };
    }
  };
}

/** A weak tag (the JSON, not its encoding on the wire: gzip and brotli answers share it). */
function tagOf(text: string): string {
  return `W/"${createHash("sha1").update(text).digest("base64url")}"`;
}

/** Where a read's own tag waits for this step (`setVersionTag`). */
const VERSION_TAG = "trackerVersionTag";

/** Tags the read's answer with `etag` instead of the hash of its JSON. */
export function setVersionTag(ctx: Context, etag: string): void {
  ctx.state[VERSION_TAG] = etag;
}

/**
 * The body of a read that found `If-None-Match` naming its tag (`setVersionTag`) and ran nothing: this step
 * answers it 304.
 */
export const NOT_MODIFIED = new JsonText<never>("");

/** `If-None-Match` as RFC 9110 reads it: `*`, or a list of tags compared weakly. */
export function ifNoneMatch(header: string, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const opaque = etag.slice(2);
  return header.split(",").some((t) => {
    const tag = t.trim();
    return (tag.startsWith("W/") ? tag.slice(2) : tag) === opaque;
  });
}
