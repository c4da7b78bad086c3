import type { CallOptions, QueryOf, Tracker } from "@tracker/sdk";
import {
  ISSUE_SORTS,
  ISSUE_SPECIAL_FILTERS,
  PRIORITY_NAMES,
  readListFilters,
  STATE_TYPES,
} from "@tracker/sdk";
import { z } from "zod";
import { query as contractQuery, text } from "../contract.js";
import { cursorInput, decodeListCursor, listPageOf, pageFooter, pageOutput } from "../cursor.js";
import { nameList, ToolRefusal } from "../errors.js";
import { blockedIssueRow, type IssueRow, issueLines, toIssueRow } from "../format.js";
import { cycleInput, pageLimitInput, projectRefInput, teamInput, userInput } from "../inputs.js";
import type { Trust } from "../lockdown.js";
import { defineTool, type InputOf } from "../tool.js";

type IssueQuery = QueryOf<"listIssues">;

// The contract's time windows (and due dates) take a date or a date-time; the server names a malformed one
// in its answer, so the schema stays a plain string rather than paying for a pattern or lengths in every
// tools/list (this tool is in the default toolsets, whose tools/list budget schemas.test.ts keeps).
const timeBound = z.string().optional();
const estimateBound = z.number().int().optional();

const input = {
  query: text({ ...contractQuery.listIssues.q, minLength: 1 })
    .optional()
    .describe("Title and description text, or an identifier."),
  team: teamInput.optional(),
  state: z.string().min(1).optional().describe("A state name of `team`."),
  stateType: z.array(z.enum(STATE_TYPES)).optional().describe("Any of these."),
  assignee: userInput.optional().describe("Email, user id, `me`, or `none`."),
  creator: z.string().optional(),
  project: projectRefInput.optional(),
  parent: z.string().optional().describe("Its sub-issues (`ENG-1`); `none`: top-level; `any`."),
  priority: z.array(z.union([z.enum(PRIORITY_NAMES), z.number().int().min(0).max(4)])).optional(),
  estimateMin: estimateBound,
  estimateMax: estimateBound,
  dueAfter: timeBound.describe(
    "Each date bound: YYYY-MM-DD, relative (today, +14d, -7d) or (not due…) an ISO date-time. …After, …Min inclusive; …Before exclusive.",
  ),
  dueBefore: timeBound,
  cycle: cycleInput.optional(),
  labels: z.array(z.string().min(1)).optional().describe('Must carry all of them; ["none"]: no labels.'),
  special: z
    .array(z.enum(ISSUE_SPECIAL_FILTERS))
    .optional()
    .describe("All must hold. blocked: an open blocker; stale: open, untouched 14 days."),
  createdAfter: timeBound,
  createdBefore: timeBound,
  updatedAfter: timeBound,
  updatedBefore: timeBound,
  completedAfter: timeBound.describe("Closed at or after; open issues never match."),
  completedBefore: timeBound,
  sort: z.enum(ISSUE_SORTS).optional().describe("`-` reverses; default -updated."),
  view: z.string().min(1).optional().describe("A saved view's name; your filters win."),
  limit: pageLimitInput(50),
  cursor: cursorInput,
};

type Input = InputOf<typeof input>;

async function viewQuery(tracker: Tracker, name: string, read: CallOptions): Promise<IssueQuery> {
  const views = await tracker.views.list(read);
  const view = views.find((v) => v.name.toLowerCase() === name.toLowerCase());
  if (view?.kind !== "issues") {
    const names = views.filter((v) => v.kind === "issues").map((v) => v.name);
    throw new ToolRefusal(`No saved issue view named "${name}". Your issue views: ${nameList(names)}.`);
  }
  // A view holds its list query's filters: the SDK's LIST_FILTERS, generated from the contract.
  const query: IssueQuery = readListFilters("issues", view.filters);
  if (view.team && query.team === undefined) query.team = view.team;
  if (view.sort) query.sort = view.sort as IssueQuery["sort"];
  return query;
}

/** The API query for the input: a saved view's filters first, the explicit filters over them. */
export async function issueQuery(tracker: Tracker, input: Input, read: CallOptions): Promise<IssueQuery> {
  const { query: q, labels, view, limit: _limit, cursor: _cursor, ...rest } = input;
  const out: IssueQuery = view ? await viewQuery(tracker, view, read) : {};
  for (const [key, value] of Object.entries(rest))
    if (value !== undefined) Object.assign(out, { [key]: value });
  if (q) out.q = q;
  if (labels?.length) out.label = labels;
  return out;
}

const FINISHED = new Set(["completed", "canceled"]);

/**
 * Puts each row's open blockers (and what it blocks) on its line, so a list of blocked issues needs no
 * get_issue per line. The API's Issue carries no relations: one relations read per row, a few at a time.
 */
async function addBlockers(
  tracker: Tracker,
  rows: IssueRow[],
  blockedBy: boolean,
  blocks: boolean,
  read: CallOptions,
): Promise<void> {
  const open = (r: { issue: { state: { type: string } } }) => !FINISHED.has(r.issue.state.type);
  for (let i = 0; i < rows.length; i += 8) {
    await Promise.all(
      rows.slice(i, i + 8).map(async (row) => {
        const relations = await tracker.issues.relations(row.identifier, read);
        const of = (type: string) =>
          relations.filter((r) => r.type === type && open(r)).map((r) => r.issue.identifier);
        if (blockedBy) row.blockedBy = of("blocked_by");
        if (blocks) row.blocks = of("blocks");
      }),
    );
  }
}

/**
 * Lockdown of a list: the titles of the rows a guest created (the list API's `creator` filter, once per
 * guest with the same filters; the Issue row names no creator). Answers whether any was held back.
 */
async function holdGuestTitles(
  tracker: Tracker,
  trust: Trust,
  query: IssueQuery,
  rows: IssueRow[],
  read: CallOptions,
): Promise<boolean> {
  let held = false;
  for (const guest of await trust.guests()) {
    const theirs = await tracker.issues.list({ ...query, creator: guest.id, limit: 200 }, read);
    const ids = new Set(theirs.items.map((i) => i.identifier));
    for (const row of rows)
      if (ids.has(row.identifier)) {
        row.title = trust.line(row.title, `guest ${guest.email}`);
        held = true;
      }
  }
  return held;
}

export const searchIssuesTool = defineTool({
  name: "search_issues",
  title: "Search issues",
  description:
    "Find issues by text, filters (ANDed) or a saved `view`. Each line: " +
    "`ENG-12 [In Progress] P2 @ada due 2025-01-31 Title` (P1 urgent…P4 low, P- none; @- unassigned). " +
    "All states unless filtered; open: stateType backlog, unstarted, started.",
  input,
  output: { issues: z.array(blockedIssueRow), ...pageOutput },
  readOnly: true,
  destructive: false,
  idempotent: true,
  async run(input, { tracker, read, trust }) {
    const query = await issueQuery(tracker, input, read);
    const at = decodeListCursor(input.cursor, query);
    const page = await tracker.issues.list({ ...query, limit: input.limit, ...at }, read);
    const rows = page.items.map(toIssueRow);
    const held = trust ? await holdGuestTitles(tracker, trust, query, rows, read) : false;
    const special = query.special ?? [];
    if (special.includes("blocked") || special.includes("blocking"))
      await addBlockers(tracker, rows, special.includes("blocked"), special.includes("blocking"), read);
    const paging = listPageOf(page, query);
    const text =
      rows.length === 0
        ? "No issues match."
        : [...issueLines(rows), pageFooter(rows.length, "issue", paging)].join("\n");
    return { text: held ? `${trust!.legend()}\n${text}` : text, data: { issues: rows, ...paging } };
  },
  about: (input) => ({
    team: input.team,
    state: input.state,
    assignee: input.assignee,
    project: input.project,
  }),
});
