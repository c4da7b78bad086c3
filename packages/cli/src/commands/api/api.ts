import { TrackerError } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, UsageError } from "../../command.js";
import { textFrom } from "../../input.js";
import { printJson } from "../../output.js";

export const spec = defineCommand({
  summary: "Make an authenticated request to the Tracker API and print the JSON answer",
  description:
    "The path is relative to /api/v1 (a leading /api/v1 is dropped). Fields go in the query string for GET\n" +
    "and DELETE, and in a JSON body otherwise. --field converts true, false, null and integers to JSON;\n" +
    "--raw-field always sends a string. A key ending in [] builds an array: -F 'labels[]=bug'.",
  args: ["method", "path"],
  options: {
    field: { type: "string", short: "F", multiple: true, value: "KEY=VALUE", description: "A typed field" },
    rawField: {
      type: "string",
      short: "f",
      multiple: true,
      value: "KEY=VALUE",
      description: "A string field",
    },
    input: {
      type: "string",
      value: "FILE",
      description: "Send this file's JSON as the body (- for standard input)",
    },
  },
  examples: [
    "tracker api GET /users",
    "tracker api GET /issues -F team=ENG -f special=overdue,blocked",
    "tracker api PATCH /issues/ENG-12 -f state='In Progress' -F priority=2",
    "tracker api POST /issues/ENG-12/comments -f body='Looks good'",
    'echo \'{"name":"bug"}\' | tracker api POST /labels --input -',
  ],
});

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

function typed(value: string): unknown {
  if (value === "true") return true;
  if (value === "false") return false;
  if (value === "null") return null;
  if (/^-?(0|[1-9]\d{0,14})$/.test(value)) return Number(value);
  return value;
}

/** Collects `key=value` flags into one object; `key[]=v` repeated builds an array. */
export function collectFields(typedFields: string[] = [], rawFields: string[] = []): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const add = (pair: string, convert: (v: string) => unknown) => {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new UsageError(`invalid field "${pair}"; expected key=value`);
    const key = pair.slice(0, eq);
    const value = convert(pair.slice(eq + 1));
    if (key.endsWith("[]")) {
      const name = key.slice(0, -2);
      const list = Array.isArray(fields[name]) ? (fields[name] as unknown[]) : [];
      fields[name] = [...list, value];
    } else fields[key] = value;
  };
  for (const pair of typedFields) add(pair, typed);
  for (const pair of rawFields) add(pair, (v) => v);
  return fields;
}

// `tracker.raw` is typed path by path; a user-typed path is not known at compile time, so call it loosely.
interface LooseClient {
  request(
    method: string,
    path: string,
    init: { params?: { query?: Record<string, unknown> }; body?: unknown; signal?: AbortSignal },
  ): Promise<{ data?: unknown; error?: unknown; response: Response }>;
}

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const method = opts.method.toUpperCase();
  if (!METHODS.includes(method as (typeof METHODS)[number])) {
    throw new UsageError(`invalid method "${opts.method}"; expected one of: ${METHODS.join(", ")}`);
  }
  const url = new URL(opts.path.replace(/^\/?(api\/v1)?\/?/, "/"), "http://placeholder");
  const fields = collectFields(opts.field, opts.rawField);
  const query: Record<string, unknown> = Object.fromEntries(url.searchParams);
  const inQuery = method === "GET" || method === "DELETE";
  if (inQuery) Object.assign(query, fields);

  const input = await textFrom(
    deps,
    { flag: "field", value: undefined },
    { flag: "input", value: opts.input },
  );
  let body: unknown = !inQuery && Object.keys(fields).length ? fields : undefined;
  if (input !== undefined) {
    try {
      body = JSON.parse(input);
    } catch {
      throw new UsageError("--input is not valid JSON");
    }
  }

  const client = deps.tracker.raw as unknown as LooseClient;
  const { data, error, response } = await client.request(method, url.pathname, {
    params: { query },
    ...(body !== undefined ? { body } : {}),
    ...(deps.call.signal ? { signal: deps.call.signal } : {}),
  });
  if (!response.ok) throw TrackerError.fromResponse(response, error);
  await printJson(deps, data ?? null);
}
