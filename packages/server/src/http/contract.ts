import { readFileSync } from "node:fs";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule, { type FormatsPlugin } from "ajv-formats";
import { parse } from "yaml";
import { contractFile } from "../config.js";
import { type FieldError, fieldPath } from "./problem.js";

// ajv-formats ships CommonJS; under NodeNext its default export is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ??
  addFormatsModule) as FormatsPlugin;

export const HTTP_METHODS = ["get", "post", "put", "patch", "delete"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

type Json = Record<string, unknown>;

export interface ParameterSpec {
  name: string;
  in: "query" | "path" | "header";
  required: boolean;
  schema: Json;
}

export interface OperationSpec {
  operationId: string;
  method: HttpMethod;
  /** Contract path, e.g. `/issues/{identifier}`. */
  path: string;
  /** False for operations with `security: []` (no key needed). */
  authenticated: boolean;
  /** True when the operation acts inside a workspace (it takes the X-Service-Workspace parameter). */
  workspaceScoped: boolean;
  /** True when the path sits outside `/api/v1` (a path-level `servers` override). */
  unversioned: boolean;
  parameters: ParameterSpec[];
  /** Query parameters whose schema is an array: sent comma-separated. */
  commaListParams: string[];
  requestBodyRequired: boolean;
  validateBody: ValidateFunction | undefined;
  validateQuery: ValidateFunction;
  validatePath: ValidateFunction;
  /**
   * status (or `4XX`, `default`) → content type → the response's JSON schema (undefined for a body that is
   * not JSON, null for a JSON body the contract gives no schema), for checking responses against the
   * contract (`Contract.checkResponse`, which compiles each on first use).
   */
  responses: Map<string, Map<string, Json | null | undefined>>;
}

export const WORKSPACE_HEADER = "X-Service-Workspace";

/**
 * The contract, parsed once. Request validation, the 501 list and the tests' response checks all read it,
 * so the server cannot accept or answer a shape that the contract does not describe.
 */
export class Contract {
  readonly document: Json;
  readonly operations: OperationSpec[] = [];
  private readonly byId = new Map<string, OperationSpec>();
  private readonly strictAjv: Ajv2020;
  /** The closed components the tests check responses against ({@link closeObjects}), made on first use. */
  private responseAjv: Ajv2020 | undefined;
  /** Response validators compiled so far, by schema. */
  private readonly responseValidators = new WeakMap<Json, ValidateFunction>();

  constructor(document: Json) {
    this.document = document;
    const components = (document.components ?? {}) as Json;
    this.strictAjv = this.makeAjv(components, false);
    const coercingAjv = this.makeAjv(components, true);

    const paths = (document.paths ?? {}) as Record<string, Json>;
    for (const [p, item] of Object.entries(paths)) {
      const pathParams = ((item.parameters ?? []) as Json[]).map((x) => this.deref(x));
      for (const method of HTTP_METHODS) {
        const op = item[method] as Json | undefined;
        if (!op) continue;
        const params = [...pathParams, ...((op.parameters ?? []) as Json[]).map((x) => this.deref(x))].map(
          (x): ParameterSpec => ({
            name: String(x.name),
            in: x.in as ParameterSpec["in"],
            required: Boolean(x.required),
            schema: (x.schema ?? {}) as Json,
          }),
        );
        const body = op.requestBody ? this.deref(op.requestBody as Json) : undefined;
        const bodySchema = (body?.content as Json | undefined)?.["application/json"] as Json | undefined;
        const security = (op.security ?? document.security ?? []) as unknown[];
        const spec: OperationSpec = {
          operationId: String(op.operationId),
          method,
          path: p,
          authenticated: security.length > 0,
          workspaceScoped: params.some(
            (x) => x.in === "header" && x.name.toLowerCase() === "x-service-workspace",
          ),
          unversioned: Array.isArray(item.servers) || Array.isArray(op.servers),
          parameters: params,
          commaListParams: params
            .filter((x) => x.in === "query" && this.isArraySchema(x.schema))
            .map((x) => x.name),
          requestBodyRequired: Boolean(body?.required),
          validateBody: bodySchema?.schema
            ? this.strictAjv.compile(this.rewriteRefs(bodySchema.schema))
            : undefined,
          validateQuery: coercingAjv.compile(this.objectSchema(params.filter((x) => x.in === "query"))),
          validatePath: coercingAjv.compile(this.objectSchema(params.filter((x) => x.in === "path"))),
          responses: new Map(),
        };
        // Only the tests check responses: their ~700 validators are compiled when first asked for, not on
        // every start (they were three quarters of the contract's heap, ~18 MB, and of its start-up time).
        for (const [status, resp] of Object.entries((op.responses ?? {}) as Json)) {
          const r = this.deref(resp as Json);
          const byType = new Map<string, Json | null | undefined>();
          for (const [type, media] of Object.entries((r.content ?? {}) as Record<string, Json>)) {
            byType.set(
              type,
              type.includes("json") ? ((media.schema as Json | undefined) ?? null) : undefined,
            );
          }
          spec.responses.set(status, byType);
        }
        this.operations.push(spec);
        this.byId.set(spec.operationId, spec);
      }
    }
  }

  static load(file = contractFile): Contract {
    return new Contract(parse(readFileSync(file, "utf8")) as Json);
  }

  operation(operationId: string): OperationSpec {
    const op = this.byId.get(operationId);
    if (!op) throw new Error(`No operation ${operationId} in the contract`);
    return op;
  }

  /**
   * Checks a response the server gave against the contract; returns what is wrong (empty when it conforms).
   * `body` is the parsed JSON, or the text as sent ("" for none). Nothing passes unchecked: a status the
   * operation does not declare, a content type it does not declare for that status, a body where it declares
   * none, or a JSON body it gives no schema is reported, as is a body its schema does not describe. The
   * schemas are checked closed ({@link closeObjects}): an object may hold only the fields its schema lists.
   */
  checkResponse(op: OperationSpec, status: number, contentType: string | null, body: unknown): string[] {
    const at = `${op.operationId} ${status}`;
    // The contract's `default` is `ServerError` (500, 503) on every operation: it answers for a server
    // error only, and each client error must be declared by its own status.
    const byType =
      op.responses.get(String(status)) ??
      op.responses.get(`${String(status)[0]}XX`) ??
      (status >= 500 ? op.responses.get("default") : undefined);
    if (!byType) return [`${op.operationId}: status ${status} is not declared`];
    const empty = body === "" || body === undefined;
    if (byType.size === 0) return empty ? [] : [`${at}: sends a body where the contract declares none`];
    const type = (contentType ?? "").split(";")[0]!.trim();
    // `*/*`: any type (a downloaded file is served as the type sniffed from its bytes).
    const declared = byType.has(type) ? type : byType.has("*/*") ? "*/*" : undefined;
    if (!declared) return [`${at}: content type "${type}" is not declared`];
    const schema = byType.get(declared);
    if (schema === null) return [`${at}: the contract gives no schema for ${type}, so nothing can check it`];
    if (schema === undefined) return [];
    const problems = this.validateClosed(schema, body);
    return problems.map((p) => `${at}: ${p}`);
  }

  /**
   * Checks `value` against the contract's `components.schemas[name]`, closed as responses are: for answers
   * a test reads without the contract-checking client (Node's own refusals, raw sockets).
   */
  checkSchema(name: string, value: unknown): string[] {
    const schemas = ((this.document.components as Json | undefined)?.schemas ?? {}) as Json;
    if (!schemas[name]) return [`no schema ${name} in the contract`];
    return this.validateClosed(schemas[name] as Json, value).map((p) => `${name}: ${p}`);
  }

  private validateClosed(schema: Json, value: unknown): string[] {
    let validate = this.responseValidators.get(schema);
    if (!validate) {
      this.responseAjv ??= this.makeAjv(closeComponents((this.document.components ?? {}) as Json), false);
      validate = this.responseAjv.compile(this.rewriteRefs(closeObjects(schema)));
      this.responseValidators.set(schema, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => {
      const extra =
        e.keyword === "unevaluatedProperties"
          ? ` (${(e.params as { unevaluatedProperty: string }).unevaluatedProperty})`
          : "";
      return `${e.instancePath || "/"} ${e.message}${extra}`;
    });
  }

  private makeAjv(components: Json, coerce: boolean): Ajv2020 {
    const ajv = new Ajv2020({
      strict: false,
      allErrors: true,
      coerceTypes: coerce ? "array" : false,
      useDefaults: coerce,
      validateFormats: true,
    });
    addFormats(ajv);
    ajv.addSchema({ $id: "contract", components: this.rewriteRefs(components) });
    return ajv;
  }

  private isArraySchema(schema: Json): boolean {
    const s = typeof schema.$ref === "string" ? this.deref(schema) : schema;
    return s.type === "array" || (Array.isArray(s.type) && s.type.includes("array"));
  }

  private objectSchema(params: ParameterSpec[]): Json {
    return {
      type: "object",
      properties: Object.fromEntries(params.map((x) => [x.name, this.rewriteRefs(x.schema)])),
      required: params.filter((x) => x.required).map((x) => x.name),
    };
  }

  /** `#/components/...` inside a compiled sub-schema must point at the registered components document. */
  private rewriteRefs<T>(value: T): T {
    if (Array.isArray(value)) return value.map((v) => this.rewriteRefs(v)) as T;
    if (value && typeof value === "object") {
      const out: Json = {};
      for (const [k, v] of Object.entries(value as Json)) {
        out[k] =
          k === "$ref" && typeof v === "string" && v.startsWith("#/") ? `contract${v}` : this.rewriteRefs(v);
      }
      return out as T;
    }
    return value;
  }

  /** Resolves an OpenAPI-level `$ref` (parameters, responses, request bodies). */
  private deref(obj: Json): Json {
    let cur = obj;
    for (let i = 0; i < 10 && typeof cur.$ref === "string"; i++) {
      const parts = (cur.$ref as string).replace(/^#\//, "").split("/");
      let target: unknown = this.document;
      for (const part of parts) target = (target as Json)[part.replace(/~1/g, "/").replace(/~0/g, "~")];
      if (!target) throw new Error(`Unresolvable $ref ${String(cur.$ref)}`);
      cur = target as Json;
    }
    return cur;
  }
}

/**
 * What {@link closeObjects} leaves as it is: the keywords whose values are data, not schemas, and the
 * conditions (`if`, `then`, `else`, `not`), which state a rule about fields listed elsewhere rather than
 * describe an object whole.
 */
const KEPT_AS_IS = new Set([
  "enum",
  "const",
  "examples",
  "example",
  "default",
  "required",
  "if",
  "then",
  "else",
  "not",
]);

/**
 * A copy of a response schema in which every object that does not say otherwise holds only the fields its
 * schema lists (`unevaluatedProperties: false`), so the tests catch a field the server sends but the
 * contract does not describe. The contract itself leaves answers open: within v1 new response fields may
 * be added and clients ignore fields they do not know (`openapi.yaml`, "Versioning"); the server of this
 * version sends none it does not list. A member of an `allOf` stays open, its holder closed: the holder's
 * check sees the fields every member lists. A component stays open where it is defined and is closed
 * where it is used (`{$ref, unevaluatedProperties: false}`), so it can also be an `allOf` member.
 */
export function closeObjects<T>(schema: T, member = false): T {
  if (Array.isArray(schema)) return schema.map((s) => closeObjects(s)) as T;
  if (!schema || typeof schema !== "object") return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema as Json)) {
    if (KEPT_AS_IS.has(k)) out[k] = v;
    else if (k === "allOf") out[k] = (v as unknown[]).map((m) => closeObjects(m, true));
    else if (k === "properties")
      out[k] = Object.fromEntries(Object.entries(v as Json).map(([name, p]) => [name, closeObjects(p)]));
    else out[k] = closeObjects(v);
  }
  const describesObject = "properties" in out || "allOf" in out || "$ref" in out || out.type === "object";
  if (!member && describesObject && !("additionalProperties" in out) && !("unevaluatedProperties" in out))
    out.unevaluatedProperties = false;
  return out as T;
}

/** The components with their insides closed ({@link closeObjects}), each schema itself left open. */
function closeComponents(components: Json): Json {
  const schemas = (components.schemas ?? {}) as Json;
  return {
    ...components,
    schemas: Object.fromEntries(Object.entries(schemas).map(([name, s]) => [name, closeObjects(s, true)])),
  };
}

/** Turns ajv's errors into the problem body's `errors: [{path, message}]`, each path a JSON Pointer. */
export function fieldErrors(
  where: "body" | "query" | "path",
  errors: ErrorObject[] | null | undefined,
): FieldError[] {
  return (errors ?? []).map((e) => {
    // ajv's instancePath is a JSON Pointer below the part (`/issues/2/title`): its segments, unescaped.
    const at = e.instancePath
      .split("/")
      .slice(1)
      .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
    if (e.keyword === "required") {
      const missing = (e.params as { missingProperty: string }).missingProperty;
      return { path: fieldPath(where, ...at, missing), message: e.message ?? "is required" };
    }
    if (e.keyword === "additionalProperties") {
      const field = (e.params as { additionalProperty: string }).additionalProperty;
      return { path: fieldPath(where, ...at, field), message: "is not a known field" };
    }
    let message = e.message ?? "is invalid";
    if (e.keyword === "enum")
      message = `must be one of: ${(e.params as { allowedValues: unknown[] }).allowedValues.join(", ")}`;
    return { path: fieldPath(where, ...at), message };
  });
}

/** Deeper than any body the contract describes (free-form filters included) needs. */
export const MAX_INPUT_DEPTH = 32;

/**
 * What no operation could store: the NUL character (PostgreSQL text cannot hold it), in a value or a key,
 * and nesting deeper than {@link MAX_INPUT_DEPTH}. One error per offending field, so such input is refused
 * up front as the client's. Walks with its own stack: a body of 1 MiB can nest 500,000 levels deep.
 */
export function unstorableInputErrors(parts: Record<"path" | "query" | "body", unknown>): FieldError[] {
  const errors: FieldError[] = [];
  // Each entry knows its parent and key; a path is spelled out only for an error.
  interface Entry {
    value: unknown;
    key: string;
    parent: Entry | undefined;
    depth: number;
  }
  const pathOf = (entry: Entry): string => {
    const segments: string[] = [];
    let e = entry;
    for (; e.parent; e = e.parent) segments.push(e.key);
    // `e` is now the part's own entry: its key is the part.
    return fieldPath(e.key as keyof typeof parts, ...segments.reverse());
  };
  const stack: Entry[] = Object.entries(parts)
    .reverse()
    .map(([key, value]) => ({ value, key, parent: undefined, depth: 0 }));
  while (stack.length) {
    const entry = stack.pop()!;
    const { value, depth } = entry;
    if (typeof value === "string") {
      if (value.includes("\u0000"))
        errors.push({ path: pathOf(entry), message: "must not contain the NUL character" });
      continue;
    }
    if (!value || typeof value !== "object") continue;
    if (depth >= MAX_INPUT_DEPTH) {
      errors.push({ path: pathOf(entry), message: `is nested more than ${MAX_INPUT_DEPTH} levels deep` });
      continue;
    }
    const entries = Array.isArray(value) ? [...value.entries()] : Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [k, v] = entries[i]!;
      if (typeof k === "string" && k.includes("\u0000"))
        errors.push({ path: pathOf(entry), message: "has a key containing the NUL character" });
      else stack.push({ value: v, key: String(k), parent: entry, depth: depth + 1 });
    }
  }
  return errors;
}
