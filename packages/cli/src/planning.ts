import { HEALTH_VALUES } from "@tracker/sdk";
import { type CommonOptions, type Deps, dateFlag, splitList } from "./command.js";
import { textFrom } from "./input.js";
import { type Column, printJson, printList, say } from "./output.js";
import { collectPages, parseLimit } from "./paging.js";

/** `create` sets what is given; `edit` changes what is given, and `none` clears a lead or a date. */
export type PlanningMode = "create" | "edit";

/**
 * The flags projects and initiatives share (`tracker projects create|edit`, `tracker initiatives
 * create|edit`): the description inline or from a file, the status from the contract's list, the lead
 * and the target date.
 */
export function planningOptions<const S extends readonly string[]>(
  mode: PlanningMode,
  statuses: S,
  defaultStatus: S[number],
) {
  const edit = mode === "edit";
  return {
    description: {
      type: "string",
      short: "d",
      value: "TEXT",
      description: edit ? "New description, in Markdown" : "Description, in Markdown",
    },
    descriptionFile: {
      type: "string",
      short: "F",
      value: "FILE",
      description: "Read the description from a file (- for standard input)",
    },
    status: {
      type: "string",
      short: "s",
      value: "STATUS",
      description: edit ? "New status" : `Status (default ${defaultStatus})`,
      choices: statuses,
    },
    lead: {
      type: "string",
      value: "USER",
      description: edit ? "Lead: email, id or `me`; `none` clears" : "Lead: email, id or `me`",
    },
    target: {
      type: "string",
      value: "DATE",
      description: edit ? "Target date YYYY-MM-DD; `none` clears" : "Target date, YYYY-MM-DD",
    },
  } as const;
}

interface PlanningFlags {
  description?: string;
  descriptionFile?: string;
  status?: string;
  lead?: string;
  target?: string;
}

/** The shared fields of a create or update body, from the flags of {@link planningOptions}. */
export async function planningBody(
  deps: Deps,
  mode: PlanningMode,
  opts: PlanningFlags,
): Promise<{ description?: string; status?: string; lead?: string | null; targetDate?: string | null }> {
  const body: Awaited<ReturnType<typeof planningBody>> = {};
  const description = await textFrom(
    deps,
    { flag: "description", value: opts.description },
    { flag: "description-file", value: opts.descriptionFile },
  );
  if (description !== undefined) body.description = description;
  if (opts.status) body.status = opts.status;
  if (opts.lead !== undefined) body.lead = mode === "edit" && opts.lead === "none" ? null : opts.lead;
  if (opts.target !== undefined)
    body.targetDate =
      mode === "edit" ? dateFlag("target", opts.target, true) : dateFlag("target", opts.target);
  return body;
}

/** What `create` and `edit` print: the JSON with --json, else a line on a terminal and the id on stdout. */
export async function printSaved(
  deps: Deps,
  json: boolean | undefined,
  said: string,
  saved: { id: string; name: string; status: string },
): Promise<void> {
  if (json) return printJson(deps, saved);
  if (deps.isTTY) say(deps, `${said} ${saved.name} [${saved.status}]`);
  deps.stdout.write(`${saved.id}\n`);
}

/**
 * The flags of `tracker projects list` and `tracker initiatives list`, which the contract filters alike:
 * statuses, leads, health, computed filters (`special`), a sort, and how many to fetch.
 */
export function planningListOptions<
  const S extends readonly string[],
  const F extends readonly string[],
  const O extends readonly string[],
>(plural: string, lists: { statuses: S; specials: F; sorts: O }) {
  return {
    status: {
      type: "string",
      short: "s",
      value: "LIST",
      description: "Comma-separated statuses",
      choices: lists.statuses,
      list: true,
    },
    lead: {
      type: "string",
      value: "USERS",
      description: "Comma-separated leads (email, id, `me`, or `none`)",
    },
    health: {
      type: "string",
      value: "LIST",
      description: "Comma-separated health values",
      choices: HEALTH_VALUES,
      list: true,
    },
    special: {
      type: "string",
      value: "FILTERS",
      description: "Comma-separated computed filters",
      choices: lists.specials,
      list: true,
    },
    sort: {
      type: "string",
      value: "KEY",
      description: "Sort key; prefix - to reverse (default -updated)",
      choices: lists.sorts,
    },
    limit: {
      type: "string",
      short: "L",
      value: "N",
      description: `Most ${plural} to list (default 50), or "all"`,
    },
    all: { type: "boolean", description: `List every matching ${plural.replace(/s$/, "")}` },
  } as const;
}

interface PlanningListFlags extends CommonOptions {
  status?: string;
  lead?: string;
  health?: string;
  special?: string;
  sort?: string;
  limit?: string;
  all?: boolean;
}

/**
 * Runs a planning list: the query from the shared flags (plus `extra`, e.g. a project's teams), every page
 * up to --limit, then the table or JSON, and a hint on a terminal when more are left.
 */
export async function listPlanning<T>(
  deps: Deps,
  opts: PlanningListFlags,
  plural: string,
  extra: Record<string, string | string[]>,
  fetchPage: (
    query: Record<string, unknown>,
  ) => Promise<{ items: T[]; nextOffset: number | null; nextCursor?: string | null }>,
  columns: Column<T>[],
): Promise<void> {
  const query: Record<string, unknown> = { ...extra };
  for (const key of ["status", "lead", "health", "special"] as const) {
    const items = splitList(opts[key]);
    if (items) query[key] = items;
  }
  if (opts.sort) query.sort = opts.sort;
  const { items, more } = await collectPages<T>(
    deps,
    parseLimit(opts.limit, opts.all),
    (page) => fetchPage({ ...query, ...page }),
    plural,
  );
  await printList(deps, opts, items, columns, `No ${plural} match.`);
  if (deps.isTTY && !opts.json && more)
    say(deps, `Showing ${items.length} ${plural}; there are more (use --limit all).`);
}
