import type { Config } from "../config.js";
import { fieldErrors, unstorableInputErrors } from "./contract.js";
import type { OperationStep } from "./operation-call.js";
import { Invalid, NotFound, NotImplemented } from "./problem.js";

/**
 * The step that judges the input against the contract: path, query and body, each by the operation's
 * schema (400 `invalid_request` with one `errors` entry per field), after what no field could store (NUL,
 * nesting past 32 levels). Comma lists (`special=overdue,blocked`) become the arrays the contract
 * describes, and the query's values are coerced and defaulted in place. An operation not built yet (501)
 * is not judged at all, nor one that exists only in development mode (404 elsewhere).
 */
export function validate(config: Config): OperationStep {
  return (call, next) => {
    const { ctx, op, entry, query } = call;
    // Not built yet: say so before judging the input, which the operation may not even read.
    if (!entry) throw new NotImplemented(op.operationId);
    if (entry.devOnly && config.nodeEnv !== "development")
      throw new NotFound(`No route for ${ctx.method} ${ctx.path}.`);

    const params = { ...ctx.params } as Record<string, string>;
    const unstorable = unstorableInputErrors({ path: params, query, body: ctx.request.body });
    // A refusal of the body is placed the operation's way, if it has one (a batch names the item).
    const refuse = (problem: Invalid) => entry.placeInvalid?.(problem, ctx.request.body) ?? problem;
    if (unstorable.length)
      throw refuse(new Invalid("The request holds a value that cannot be stored: see errors.", unstorable));
    if (!op.validatePath(params))
      throw new Invalid("Invalid path parameter.", fieldErrors("path", op.validatePath.errors));
    // Comma-separated lists (`special=overdue,blocked`) are arrays in the contract (style form, explode false).
    for (const name of op.commaListParams) {
      const v = query[name];
      if (typeof v === "string")
        query[name] = v
          .split(",")
          .map((x) => x.trim())
          .filter(Boolean);
      else if (Array.isArray(v))
        query[name] = v
          .flatMap((x) => String(x).split(","))
          .map((x) => x.trim())
          .filter(Boolean);
    }
    if (!op.validateQuery(query))
      throw new Invalid("Invalid query parameter.", fieldErrors("query", op.validateQuery.errors));
    let body: unknown;
    if (op.validateBody) {
      body = ctx.request.body ?? {};
      if (!op.validateBody(body))
        throw refuse(new Invalid("Invalid request body.", fieldErrors("body", op.validateBody.errors)));
    }
    call.input = { body, params, query };
    return next();
  };
}
