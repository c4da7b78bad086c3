import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Tracker } from "@tracker/sdk";
import { ISSUE_SORTS, ISSUE_SPECIAL_FILTERS, STATE_TYPES } from "@tracker/sdk";
import { z } from "zod";
import type { ToolDeps } from "../deps.js";
import { toolFailure } from "../errors.js";
import { formatInput, issueLine, jsonResult, textResult } from "../format.js";

export const searchIssuesInput = {
  team: z.string().min(1).optional().describe("Team key, e.g. `ENG` (list_teams shows them)."),
  state: z
    .string()
    .min(1)
    .optional()
    .describe('Workflow state name of `team`, case-insensitive, e.g. "In Progress" or "Todo". Needs `team`.'),
  stateType: z
    .array(z.enum(STATE_TYPES))
    .optional()
    .describe(
      "Any of these state types. Open work: [backlog, unstarted, started]. Omit for every state, finished ones included.",
    ),
  assignee: z.string().min(1).optional().describe("Assignee email, user id, or `me` for the key's owner."),
  project: z.string().min(1).optional().describe("Project name or id."),
  cycle: z
    .union([z.number().int().min(1), z.literal("current")])
    .optional()
    .describe("Cycle number of `team`, or `current`. Needs `team`."),
  labels: z.array(z.string().min(1)).optional().describe("Label names; an issue must carry all of them."),
  query: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      "Full-text search over title and description; an exact identifier like `ENG-123` also matches.",
    ),
  special: z
    .array(z.enum(ISSUE_SPECIAL_FILTERS))
    .optional()
    .describe(
      "Computed filters, all must hold: overdue, due_today, due_week, no_due_date, stale (open, untouched 14 days), unassigned, no_estimate, no_project, no_labels, blocked (has an open blocker), blocking, unstarted_overdue, mine, created_by_me.",
    ),
  sort: z
    .enum(ISSUE_SORTS)
    .optional()
    .describe("Sort key; a `-` prefix reverses. Default `-updated` (recently updated first)."),
  limit: z.number().int().min(1).max(200).default(25).describe("Issues per call, 1-200 (default 25)."),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe("Skip this many; pass the offset the previous answer suggested to get the next page."),
  format: formatInput,
};

type Input = z.infer<z.ZodObject<typeof searchIssuesInput>>;
type IssueQuery = NonNullable<Parameters<Tracker["issues"]["list"]>[0]>;

function toQuery(input: Input): IssueQuery {
  const { query, labels, format: _format, ...rest } = input;
  const out: IssueQuery = {};
  for (const [key, value] of Object.entries(rest))
    if (value !== undefined) Object.assign(out, { [key]: value });
  if (query) out.q = query;
  if (labels?.length) out.label = labels;
  return out;
}

export function registerSearchIssuesTool(server: McpServer, deps: ToolDeps) {
  return server.registerTool(
    "search_issues",
    {
      title: "Search issues",
      description:
        'Find issues with the same filters as the app\'s views, ANDed together: team (`ENG`), state name ("In Progress"), ' +
        "state types, assignee (email or `me`), project, cycle (number or `current`), labels, full-text `query`, and " +
        "computed `special` filters such as overdue or blocked. Answers one line per issue: " +
        "`ENG-12  [In Progress]  P2  Title  @assignee-email` (P1 urgent … P4 low, P- none). " +
        "Results are paged: when more exist the answer says which `offset` to pass next.",
      inputSchema: searchIssuesInput,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (input) => {
      try {
        const page = await deps.tracker.issues.list(toQuery(input));
        const issues = page.items;
        if (input.format === "json") return jsonResult({ issues, nextOffset: page.nextOffset });
        if (issues.length === 0) return textResult("No issues match these filters.");
        const lines = issues.map(issueLine);
        const from = input.offset ?? 0;
        lines.push(
          page.nextOffset === null
            ? `(${issues.length} issue${issues.length === 1 ? "" : "s"}, no more)`
            : `(${from + 1}-${from + issues.length} shown; more with offset ${page.nextOffset})`,
        );
        return textResult(lines.join("\n"));
      } catch (err) {
        return toolFailure(err, deps, input);
      }
    },
  );
}
