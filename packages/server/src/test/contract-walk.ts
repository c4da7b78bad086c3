/**
 * The contract's operations as a list to sweep: for tests that call every operation with chosen values
 * (hostile input, cross-workspace references).
 */
import { testContract } from "./harness.js";

type Json = Record<string, unknown>;

export interface WalkOperation {
  operationId: string;
  /** Contract path, e.g. `/issues/{identifier}`. */
  path: string;
  /** Upper case, e.g. `PATCH`. */
  method: string;
  /** Names of its query parameters. */
  query: string[];
  /** Top-level fields of its JSON body; undefined when it takes no body. */
  bodyFields?: string[];
}

const METHOD_ORDER = ["get", "post", "put", "patch", "delete"];

function resolve(doc: Json, schema: unknown): Json | undefined {
  const s = schema as Json | undefined;
  if (!s?.$ref) return s;
  const target = (s.$ref as string)
    .split("/")
    .slice(1)
    .reduce<unknown>((o, k) => (o as Json)[k], doc);
  return resolve(doc, target);
}

/**
 * Every operation but the event stream and the development-only ones, path by path, reads first and
 * deletes last (so a sweep keeps its resources until the operations that remove them).
 */
export function walkOperations(): WalkOperation[] {
  const doc = testContract().document as Json;
  const out: WalkOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    if (path === "/events" || path.startsWith("/dev/")) continue;
    const methods = Object.keys(item)
      .filter((m) => METHOD_ORDER.includes(m))
      .sort((a, b) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b));
    for (const method of methods) {
      const op = item[method] as Json;
      const query = [...((item.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])]
        .map((p) => resolve(doc, p))
        .filter((p): p is Json => p?.in === "query")
        .map((p) => String(p.name));
      const content = (op.requestBody as Json | undefined)?.content as Record<string, Json> | undefined;
      const schema = content ? resolve(doc, content["application/json"]?.schema) : undefined;
      out.push({
        operationId: String(op.operationId),
        path,
        method: method.toUpperCase(),
        query,
        bodyFields: content ? Object.keys((schema?.properties as Json | undefined) ?? {}) : undefined,
      });
    }
  }
  return out;
}

/** The path with each `{name}` replaced by `values[name]`, or by `fallback` when there is none. */
export function fillPath(path: string, values: Record<string, string | undefined>, fallback = "x"): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? fallback));
}
