import { createHash } from "node:crypto";
import type { MikroORM } from "@mikro-orm/postgresql";
import type { Context } from "koa";
import { rawTransaction } from "../db/sql.js";
import { type OperationSpec, WORKSPACE_HEADER } from "./contract.js";
import { JsonText } from "./handler.js";
import { beginAndClaim, claimKey, recordAndCommit, recordAnswer } from "./idempotency.query.js";
import type { OperationCall, OperationStep } from "./operation-call.js";
import { HttpProblem, Invalid } from "./problem.js";
import { retryingConflicts } from "./run-handler.js";

/**
 * `Idempotency-Key` (the contract's "Idempotent writes"): the first request with a key acts and its answer
 * is stored in the same transaction as its work; a repeat from the same API key within 24 hours gets that
 * answer again without acting; the same key with another request is refused; a repeat while the first is
 * still running is told to come back.
 */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const REPLAYED_HEADER = "Idempotent-Replayed";
export const IDEMPOTENCY_RETENTION_HOURS = 24;
/** What a repeat of a request still running is told to wait, in seconds. */
const IN_PROGRESS_RETRY_AFTER = 1;
const VISIBLE_ASCII = /^[\x21-\x7e]{1,255}$/;

/** The stored first answer of a request. */
export interface StoredAnswer {
  status: number;
  workspaceSlug: string | null;
  body: string;
}

/** The operations that take the header: authenticated writes that are not idempotent by themselves. */
export function takesIdempotencyKey(op: OperationSpec): boolean {
  return op.authenticated && (op.method === "post" || op.method === "patch");
}

/** The request's key, `undefined` without one; a malformed one is 400 naming the header. */
export function idempotencyKeyOf(ctx: Context): string | undefined {
  const value = ctx.headers["idempotency-key"];
  if (value === undefined) return undefined;
  const key = Array.isArray(value) ? value.join(",") : value;
  if (!VISIBLE_ASCII.test(key)) {
    throw new Invalid("The Idempotency-Key header must be 1 to 255 visible ASCII characters.", [
      { path: `/header/${IDEMPOTENCY_HEADER}`, message: "must be 1 to 255 visible ASCII characters" },
    ]);
  }
  return key;
}

/** Sorted keys, so two bodies that mean the same thing give the same fingerprint. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** What a repeat must match: method, path, query, the workspace acted in, and the body. */
export function requestFingerprint(ctx: Context, workspaceId: string | undefined, body: unknown): string {
  return createHash("sha256")
    .update(
      canonicalJson([
        ctx.method,
        ctx.path,
        ctx.querystring,
        workspaceId ?? null,
        body === undefined ? null : body,
      ]),
    )
    .digest("base64url");
}

export class IdempotencyKeyReused extends HttpProblem {
  constructor() {
    super(
      422,
      "idempotency_key_reused",
      "Idempotency key reused",
      "This Idempotency-Key was already used for another request (method, path, query or body). Use a new key for a new request.",
    );
  }
}

export class IdempotencyInProgress extends HttpProblem {
  constructor() {
    super(
      409,
      "idempotency_in_progress",
      "Request in progress",
      "A request with this Idempotency-Key is still running. Send it again shortly to get its answer.",
      { retryAfter: IN_PROGRESS_RETRY_AFTER },
    );
  }
}

/** The answer to store: the handler's, with the workspace it was given in. */
function answerOf(call: OperationCall): StoredAnswer {
  const result = call.result!;
  return {
    status: result.status,
    workspaceSlug: call.scope.workspace?.slug ?? null,
    body: result.body instanceof JsonText ? result.body.text : JSON.stringify(result.body),
  };
}

/**
 * Whether the write runs on a transaction of its own session rather than the ORM's (`rawTransaction`,
 * db/sql.ts): a plain `POST /issues` (no labels, project or parent), whose statements all go through
 * `sql()` (`issues/write/create.service.ts`), as the bench's keyed creates and most SDK creates are.
 */
function takesRawTransaction(call: OperationCall): boolean {
  if (call.op.operationId !== "createIssue") return false;
  const body = call.ctx.request.body as Record<string, unknown> | undefined;
  return !!body && body.labels == null && body.project == null && body.parent == null;
}

/**
 * Another request with the same key committed between this one's look-up and its record: this one's work
 * is rolled back and the committed answer is replayed instead.
 */
export class AnsweredMeanwhile extends Error {}

/**
 * The step for a write sent with an `Idempotency-Key` (the contract's "Idempotent writes"): the rest of the
 * request runs in one transaction with its record, and the handler's own transactions become savepoints
 * of it, so the work and the stored answer commit or roll back together. A repeat gets the stored answer,
 * marked as replayed. Without the header, or for operations that take none, the rest runs as it is.
 */
export function idempotent(orm: MikroORM): OperationStep {
  return (call, next) => {
    const key = takesIdempotencyKey(call.op) ? idempotencyKeyOf(call.ctx) : undefined;
    if (!key || !call.scope.caller) return next();
    return inOneTransaction(call, next, key);
  };

  /** The rest of the request in one transaction with the stored answer, or that answer replayed. */
  async function inOneTransaction(
    call: OperationCall,
    next: () => Promise<void>,
    key: string,
  ): Promise<void> {
    const { ctx, scope } = call;
    if (!scope.caller) return;
    const apiKeyId = scope.caller.keyId;
    const fingerprint = requestFingerprint(ctx, scope.workspace?.id, ctx.request.body);
    for (let pass = 1; ; pass++) {
      try {
        const outcome = await retryingConflicts(() =>
          takesRawTransaction(call)
            ? // BEGIN with the claim, COMMIT with the record: two round trips beside the write's own.
              rawTransaction(orm.em, async (client, em) => {
                const stored = await beginAndClaim(client, apiKeyId, key, fingerprint);
                if (stored) {
                  await client.query("rollback");
                  return { stored, replayed: true };
                }
                call.scope = { ...scope, em };
                call.inTransaction = true;
                await next();
                const answer = answerOf(call);
                await recordAndCommit(client, apiKeyId, key, fingerprint, answer);
                return { stored: answer, replayed: false };
              })
            : orm.em.fork().transactional(async (em) => {
                const stored = await claimKey(em, apiKeyId, key, fingerprint);
                if (stored) return { stored, replayed: true };
                call.scope = { ...scope, em };
                call.inTransaction = true;
                await next();
                const answer = answerOf(call);
                await recordAnswer(em, apiKeyId, key, fingerprint, answer);
                return { stored: answer, replayed: false };
              }),
        );
        if (outcome.replayed) {
          ctx.set(REPLAYED_HEADER, "true");
          if (outcome.stored.workspaceSlug) ctx.set(WORKSPACE_HEADER, outcome.stored.workspaceSlug);
        }
        call.result = { status: outcome.stored.status, body: new JsonText(outcome.stored.body) };
        return;
      } catch (err) {
        // A repeat committed first: this pass rolled back, the next one finds and replays its answer.
        if (err instanceof AnsweredMeanwhile && pass === 1) continue;
        throw err;
      }
    }
  }
}
