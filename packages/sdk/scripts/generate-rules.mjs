// Writes src/generated/rules.ts from openapi.yaml: the bounds, patterns and value sets of every schema
// property and operation parameter, and the list-filter names of the paged lists, as run-time constants.
// openapi-typescript gives the types and the enums; this gives what it leaves out (minLength, maximum,
// pattern, ...), so clients check input against the contract's numbers instead of copies of them.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

const here = dirname(fileURLToPath(import.meta.url));
const contract = parse(readFileSync(`${here}/../../../openapi.yaml`, "utf8"));
const out = `${here}/../src/generated/rules.ts`;

const KEYS = [
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "pattern",
  "format",
  "minItems",
  "maxItems",
  "default",
];

function resolve(schema) {
  let s = schema;
  const seen = new Set();
  while (s?.$ref) {
    if (seen.has(s.$ref)) throw new Error(`circular $ref ${s.$ref}`);
    seen.add(s.$ref);
    const path = s.$ref.replace(/^#\//, "").split("/");
    // Keywords beside a $ref (OpenAPI 3.1) add to the target's.
    const { $ref: _ref, ...beside } = s;
    s = { ...path.reduce((node, key) => node[key], contract), ...beside };
  }
  return s;
}

/** The rule of one schema: its type, bounds, pattern, values, and the rule of its items. */
function rule(schema) {
  const s = resolve(schema);
  const r = {};
  let types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  const variants = s.oneOf ?? s.anyOf;
  if (variants) {
    const isNull = (v) => resolve(v).type === "null";
    const nonNull = variants.filter((v) => !isNull(v)).map(rule);
    if (nonNull.length !== variants.length) r.nullable = true;
    if (nonNull.length === 1 && types.length === 0) Object.assign(r, nonNull[0]);
    else if (nonNull.length > 1) r.anyOf = nonNull;
  }
  if (types.includes("null")) {
    r.nullable = true;
    types = types.filter((t) => t !== "null");
  }
  if (types.length === 1) r.type = types[0];
  if (s.const !== undefined) r.enum = [s.const];
  if (s.enum) r.enum = s.enum.filter((v) => v !== null);
  for (const key of KEYS) if (s[key] !== undefined) r[key] = s[key];
  if (s.items) r.items = rule(s.items);
  return r;
}

const schemas = {};
for (const [name, raw] of Object.entries(contract.components.schemas)) {
  const s = resolve(raw);
  if (!s.properties) continue;
  const props = {};
  for (const [prop, schema] of Object.entries(s.properties)) props[prop] = rule(schema);
  schemas[name] = props;
}

const queries = {};
const bodies = {};
for (const methods of Object.values(contract.paths)) {
  const shared = methods.parameters ?? [];
  for (const [method, op] of Object.entries(methods)) {
    if (!op || typeof op !== "object" || !op.operationId || method === "parameters") continue;
    const query = {};
    for (const param of [...shared, ...(op.parameters ?? [])].map(resolve))
      if (param.in === "query") query[param.name] = rule(param.schema);
    queries[op.operationId] = query;
    const body = op.requestBody?.content?.["application/json"]?.schema;
    const props = body && resolve(body).properties;
    if (props)
      bodies[op.operationId] = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, rule(v)]));
  }
}

// The filters of the paged lists: their query parameters less the workspace, the sort and the paging.
// Saved views store exactly these (the contract's createView: "keys must be filter parameters of the
// kind's list query").
const NOT_FILTERS = new Set(["workspace", "sort", "limit", "offset", "cursor"]);
const LISTS = { issues: "listIssues", projects: "listProjects", initiatives: "listInitiatives" };
const filters = Object.fromEntries(
  Object.entries(LISTS).map(([kind, op]) => [
    kind,
    Object.keys(queries[op]).filter((p) => !NOT_FILTERS.has(p)),
  ]),
);

// One line per schema or operation keeps the file short and its diffs readable.
const json = (value) =>
  `{\n${Object.entries(value)
    .map(([key, v]) => `  ${JSON.stringify(key)}: ${JSON.stringify(v)},`)
    .join("\n")}\n}`;
const text = `// Generated from openapi.yaml by scripts/generate-rules.mjs (npm run generate). Do not edit.

/**
 * The rules of every object schema's properties: type, bounds, pattern, format and values, as the
 * contract states them. \`SCHEMA_RULES.IssueCreate.title.maxLength === 255\`.
 */
export const SCHEMA_RULES = ${json(schemas)} as const;

/** The rules of every operation's query parameters, by operationId. \`QUERY_RULES.listIssues.q.maxLength\`. */
export const QUERY_RULES = ${json(queries)} as const;

/**
 * The rules of every operation's JSON request body properties, by operationId, inline bodies included:
 * \`BODY_RULES.createIssues.issues.maxItems\`.
 */
export const BODY_RULES = ${json(bodies)} as const;

/**
 * The filter parameters of each paged list, in the contract's order: the list's query less \`workspace\`,
 * \`sort\`, \`limit\` and \`offset\`. A saved view of that kind holds exactly these keys in \`filters\`.
 */
export const LIST_FILTER_NAMES = ${json(filters)} as const;

/** The paged list operation of each view kind. */
export const LIST_OPERATIONS = ${json(LISTS)} as const;
`;
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, text);
