import { z } from "zod";
import { cursorInput, pageFooter, pageOutput, slicePage } from "../cursor.js";
import { ToolRefusal } from "../errors.js";
import { issueLines, issueRow, shortTime, toIssueRow } from "../format.js";
import { limitInput, teamInput } from "../inputs.js";
import { defineTool } from "../tool.js";

const cycleRow = z.object({
  number: z.number(),
  name: z.string().nullable(),
  startsAt: z.string(),
  endsAt: z.string(),
  active: z.boolean(),
});

export const listCyclesTool = defineTool({
  name: "list_cycles",
  title: "List cycles",
  description:
    "A team's cycles, newest first. `current: true` answers only the active cycle with its issues (first 50).",
  input: {
    team: teamInput,
    current: z.boolean().optional().describe("Only the active cycle, with its issues."),
    limit: limitInput(100, 20),
    cursor: cursorInput,
  },
  output: { cycles: z.array(cycleRow), issues: z.array(issueRow).optional(), ...pageOutput },
  readOnly: true,
  destructive: false,
  idempotent: true,
  async run(input, { tracker, read }) {
    const all = (await tracker.cycles.list(input.team, read)).map((c) => ({
      number: c.number,
      name: c.name,
      startsAt: c.startsAt,
      endsAt: c.endsAt,
      active: c.isActive,
    }));
    const line = (c: (typeof all)[number]) =>
      `${c.active ? "* " : ""}cycle ${c.number}${c.name ? ` "${c.name}"` : ""} ${shortTime(c.startsAt)} → ${shortTime(c.endsAt)}`;
    if (!input.current) {
      const page = slicePage(all, input.cursor, input.limit, { team: input.team.toUpperCase() });
      const lines = page.items.map(line);
      if (page.hasMore) lines.push(pageFooter(lines.length, "cycle", page));
      return {
        text: lines.join("\n") || `${input.team.toUpperCase()} has no cycles.`,
        data: { cycles: page.items, cursor: page.cursor, hasMore: page.hasMore },
      };
    }
    const active = all.filter((c) => c.active);
    if (!active.length)
      throw new ToolRefusal(`${input.team.toUpperCase()} has no active cycle. create_cycle starts one.`);
    const inCycle = { team: input.team, cycle: "current" as const };
    // The whole cycle counted by the server (`countIssues`), however few of its issues are listed here.
    const [page, counts] = await Promise.all([
      tracker.issues.list({ ...inCycle, sort: "state", limit: 50 }, read),
      tracker.issues.counts({ ...inCycle, groupBy: "stateType" }, read),
    ]);
    const count = (type: string) => counts.groups.find((g) => g.key === type)?.count ?? 0;
    const progress = `${count("completed")}/${counts.total - count("canceled")} done, ${counts.total} ${counts.total === 1 ? "issue" : "issues"}`;
    const issues = page.items.map(toIssueRow);
    const lines = [`${line(active[0]!)} · ${progress}`, ...issueLines(issues)];
    if (page.nextOffset !== null)
      lines.push(`(first 50 of ${counts.total}; search_issues with cycle \`current\` for the rest)`);
    return { text: lines.join("\n"), data: { cycles: active, issues, cursor: null, hasMore: false } };
  },
  about: (input) => ({ team: input.team }),
});
