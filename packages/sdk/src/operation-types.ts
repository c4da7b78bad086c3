// Shorthands that read request and response shapes out of the generated `operations`, so a contract
// change that alters a shape breaks the hand-written layer at compile time.
import type { components, operations } from "./generated/schema.js";

/** Every schema of the contract by name, e.g. `Schemas["Issue"]`. */
export type Schemas = components["schemas"];

export type OperationId = keyof operations;

/** The query parameters of an operation (all of them, including the `workspace` override). */
export type QueryOf<K extends OperationId> = NonNullable<operations[K]["parameters"]["query"]>;

/** The JSON request body of an operation. */
export type BodyOf<K extends OperationId> =
  NonNullable<operations[K]["requestBody"]> extends { content: { "application/json": infer B } } ? B : never;

/** The JSON body of an operation's response with status `S` (200 unless given). */
export type ResponseOf<K extends OperationId, S extends number = 200> = S extends keyof operations[K]["responses"]
  ? operations[K]["responses"][S] extends { content: { "application/json": infer R } }
    ? R
    : never
  : never;
