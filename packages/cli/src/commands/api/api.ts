import { TrackerError } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, UsageError } from "../../command.js";
import { textFrom } from "../../input.js";
import { printJson } from "../../output.js";

export const spec = defineCommand({
  summary: "Make an authenticated request to the Tracker API and print the JSON answer",
  description:
    "The path is relative to /api/v1 (a leading /api/v1 is dropped). As gh does, the method is GET, or POST\n" +
    "when fields or --input are given; -X names another (or give it before the path: 'api PATCH /…').\n" +
    "Fields go in the query string for GET and DELETE, and in a JSON body otherwise. --field converts true,\n" +
    "false, null and integers to JSON; --raw-field always sends a string. A key ending in [] builds an array:\n" +
    "-F 'labels[]=bug'. --paginate follows nextOffset and prints every page's items as one answer.",
  args: ["target", "path?"],
  options: {
    method: { type: "string", short: "X", value: "METHOD", description: "GET, POST, PUT, PATCH or DELETE" },
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
    header: {
      type: "string",
      short: "H",
      multiple: true,
      value: "KEY:VALUE",
      description: "Add a request header",
    },
    include: {
      type: "boolean",
      short: "i",
      description: "Print the status line and headers before the body",
    },
    paginate: { type: "boolean", description: "Follow nextOffset to the last page and print every item" },
  },
  examples: [
    "tracker api /users",
    "tracker api /issues -X GET -F team=ENG -f special=overdue,blocked --paginate",
    "tracker api -X PATCH /issues/ENG-12 -f state='In Progress' -F priority=2",
    "tracker api /issues/ENG-12/comments -f body='Looks good'",
    'echo \'{"name":"bug"}\' | tracker api /labels --input -',
    "tracker api -i /users -H 'X-Service-Workspace: acme'",
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
    init: {
      params?: { query?: Record<string, unknown> };
      body?: unknown;
      headers?: Record<string, string>;
      signal?: AbortSignal;
    },
  ): Promise<{ data?: unknown; error?: unknown; response: Response }>;
}

function isMethod(word: string): boolean {
  return METHODS.includes(word.toUpperCase() as (typeof METHODS)[number]);
}

function headersOf(values: string[] = []): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const value of values) {
    const colon = value.indexOf(":");
    if (colon <= 0) throw new UsageError(`invalid header "${value}"; expected key:value`);
    headers[value.slice(0, colon).trim()] = value.slice(colon + 1).trim();
  }
  return headers;
}

/**
 * The one array of a paged answer (`issues`, `projects`, `initiatives`, an issue's `events`) and where the
 * next page starts: its `nextCursor`, else (a server or list without cursors) its `nextOffset`.
 */
function pageOf(
  data: unknown,
): { key: string; items: unknown[]; next: { cursor: string } | { offset: number } | null } | undefined {
  if (!data || typeof data !== "object" || !("nextOffset" in data || "nextCursor" in data)) return undefined;
  const record = data as Record<string, unknown>;
  const key = Object.keys(record).find((k) => Array.isArray(record[k]));
  if (!key) return undefined;
  const { nextCursor, nextOffset } = record;
  const next =
    typeof nextCursor === "string"
      ? { cursor: nextCursor }
      : nextCursor === undefined && typeof nextOffset === "number"
        ? { offset: nextOffset }
        : null;
  return { key, items: record[key] as unknown[], next };
}

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  // `api PATH` as gh takes it, or the method first: `api PATCH PATH`.
  const [methodWord, rawPath] = opts.path !== undefined ? [opts.target, opts.path] : [undefined, opts.target];
  if (methodWord !== undefined && !isMethod(methodWord))
    throw new UsageError(`invalid method "${methodWord}"; expected one of: ${METHODS.join(", ")}`);
  if (methodWord !== undefined && opts.method !== undefined)
    throw new UsageError("give the method once: before the path or with -X");
  const fields = collectFields(opts.field, opts.rawField);
  const sendsBody = Object.keys(fields).length > 0 || opts.input !== undefined;
  const method = (opts.method ?? methodWord ?? (sendsBody ? "POST" : "GET")).toUpperCase();
  if (!isMethod(method))
    throw new UsageError(`invalid method "${method}"; expected one of: ${METHODS.join(", ")}`);
  const url = new URL(rawPath.replace(/^\/?(api\/v1)?\/?/, "/"), "http://placeholder");
  const query: Record<string, unknown> = Object.fromEntries(url.searchParams);
  const inQuery = method === "GET" || method === "DELETE";
  if (inQuery) Object.assign(query, fields);
  if (opts.paginate && method !== "GET") throw new UsageError("--paginate follows the pages of a GET");

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
  const headers = headersOf(opts.header);

  const client = deps.tracker.raw as unknown as LooseClient;
  const send = (next?: { cursor: string } | { offset: number }) =>
    client.request(method, url.pathname, {
      // A cursor names where the next page starts by itself: the first page's offset goes.
      params: { query: next === undefined ? query : { ...query, offset: undefined, ...next } },
      ...(body !== undefined ? { body } : {}),
      ...(Object.keys(headers).length ? { headers } : {}),
      ...(deps.call.signal ? { signal: deps.call.signal } : {}),
    });
  const first = await send();
  if (opts.include) printHead(deps, first.response);
  if (!first.response.ok) throw TrackerError.fromResponse(first.response, first.error);
  let data = first.data ?? null;
  let page = opts.paginate ? pageOf(data) : undefined;
  if (page) {
    const items = [...page.items];
    while (page.next !== null) {
      const next = await send(page.next);
      if (!next.response.ok) throw TrackerError.fromResponse(next.response, next.error);
      page = pageOf(next.data);
      if (!page) break;
      items.push(...page.items);
    }
    data = {
      ...(data as object),
      [page?.key ?? Object.keys(data as object)[0]!]: items,
      ...("nextOffset" in (data as object) ? { nextOffset: null } : {}),
      ...("nextCursor" in (data as object) ? { nextCursor: null } : {}),
    };
  }
  await printJson(deps, data);
}

/** `-i`: the status line and headers, as gh prints them, then a blank line. */
function printHead(deps: Deps, response: Response): void {
  const lines = [`HTTP ${response.status} ${response.statusText}`.trimEnd()];
  response.headers.forEach((value, key) => {
    lines.push(
      `${key.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase())}: ${value}`,
    );
  });
  deps.stdout.write(`${lines.join("\n")}\n\n`);
}
