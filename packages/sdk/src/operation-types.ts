// Shorthands that read request and response shapes out of the generated `operations`, so a contract
// change that alters a shape breaks the hand-written layer at compile time.
import type { components, operations } from "./generated/schema.js";

/** Every schema of the contract by name, e.g. `Schemas["Issue"]`. */
export type Schemas = components["schemas"];

export type OperationId = keyof operations;

/** The query parameters of an operation (all of them, including the `workspace` override). */
export type QueryOf<K extends OperationId> = NonNullable<operations[K]["parameters"]["query"]>;

type JsonBody<Op> = Op extends { requestBody?: infer R }
  ? NonNullable<R> extends { content: { "application/json": infer B } }
    ? B
    : never
  : never;

/**
 * The JSON request body of an operation as a caller writes it: fields with a contract default are
 * optional (the types are generated with `defaultNonNullable: false`; the server applies the defaults).
 */
export type BodyOf<K extends OperationId> = JsonBody<operations[K]>;

/** The JSON body of an operation's response with status `S` (200 unless given). */
export type ResponseOf<
  K extends OperationId,
  S extends number = 200,
> = S extends keyof operations[K]["responses"]
  ? operations[K]["responses"][S] extends { content: { "application/json": infer R } }
    ? R
    : never
  : never;
