import type { EntityManager } from "@mikro-orm/postgresql";
import { issueSpecialFilterValues } from "@tracker/sdk/schema";
import { sql } from "../src/db/sql.js";
import type { WorkspaceScope } from "../src/http/handler.js";
import { type IssueCountQuery, issueCountQuery } from "../src/modules/issues/list/counts.query.js";
import type { IssueFilter } from "../src/modules/issues/list/filter.js";
import { issueListQuery, listIssues, namesForFilter } from "../src/modules/issues/list/list.query.js";
import type { Seeded } from "./seed.js";

export interface PlanReport {
  name: string;
  /** A list's filter, or a count's (`countIssues`: the list's filters and `groupBy`). */
  filter: IssueFilter | IssueCountQuery;
  /** Execution time reported by EXPLAIN ANALYZE, ms (median of three runs). */
  ms: number;
  plan: string;
}

const SORTS = ["priority", "due", "created", "updated", "title", "estimate", "state", "assignee"] as const;

/** Every kind of statement listIssues produces: each filter alone, with and without a team, and each sort key. */
export function listShapes(seeded: Seeded): { name: string; filter: IssueFilter }[] {
  const team = seeded.teamKeys[3]!;
  /** The UTC date `n` days ago: the seed spreads creation over the past year, updates since then. */
  const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
  const shapes: { name: string; filter: IssueFilter }[] = [
    { name: "workspace, default sort (-updated)", filter: {} },
    { name: "team, -priority (bench case)", filter: { team, sort: "-priority" } },
    { name: "team + special overdue (bench case)", filter: { team, special: ["overdue"] } },
    { name: "special overdue,blocked (bench case)", filter: { special: ["overdue", "blocked"] } },
    { name: "q (bench case)", filter: { q: "crash report" } },
    // The bench case's other searches, in its rotation.
    { name: "q database migration (bench case)", filter: { q: "database migration" } },
    { name: "q login -timeout (bench case)", filter: { q: "login -timeout" } },
    { name: "q search or index (bench case)", filter: { q: "search or index" } },
    { name: 'q "dark mode" (bench case)', filter: { q: '"dark mode"' } },
    { name: "q with quotes, -word, or", filter: { q: '"database migration" -rollback or outage' } },
    { name: "team + q", filter: { team, q: "login" } },
    { name: "team, default sort", filter: { team } },
    { name: "team + state", filter: { team, state: "In Progress" } },
    { name: "team + cycle current", filter: { team, cycle: "current" } },
    { name: "stateType open", filter: { stateType: ["backlog", "unstarted", "started"] } },
    { name: "assignee", filter: { assignee: "me" } },
    { name: "project", filter: { project: "Project 7" } },
    { name: "label", filter: { label: ["bug"] } },
    { name: "label x2", filter: { label: ["bug", "frontend"] } },
    { name: "deep page (offset 5000)", filter: { offset: 5000 } },
    { name: "team + createdAfter (last week)", filter: { team, createdAfter: daysAgo(7) } },
    { name: "createdAfter (last week)", filter: { createdAfter: daysAgo(7) } },
    { name: "updatedAfter (yesterday)", filter: { updatedAfter: daysAgo(1) } },
    { name: "team + updatedAfter (last week)", filter: { team, updatedAfter: daysAgo(7) } },
    {
      name: "createdAfter..createdBefore (ten days, a year ago)",
      filter: { createdAfter: daysAgo(300), createdBefore: daysAgo(290) },
    },
    { name: "completedAfter (last week)", filter: { completedAfter: daysAgo(7) } },
    { name: "completedBefore (ten months ago)", filter: { completedBefore: daysAgo(300) } },
    { name: "team + completedBefore (ten months ago)", filter: { team, completedBefore: daysAgo(300) } },
    // Issue 37's filters, each alone and in the shapes people save ("urgent bugs").
    { name: "priority urgent", filter: { priority: ["urgent"] } },
    { name: "team + priority urgent,high", filter: { team, priority: ["urgent", "high"] } },
    { name: "priority none", filter: { priority: ["none"] } },
    { name: "priority urgent + label bug (urgent bugs)", filter: { priority: ["urgent"], label: ["bug"] } },
    {
      name: "priority urgent + label bug + open, sort priority (saved view)",
      filter: {
        priority: ["urgent"],
        label: ["bug"],
        stateType: ["backlog", "unstarted", "started"],
        sort: "priority",
      },
    },
    { name: "estimateMin 8", filter: { estimateMin: 8 } },
    { name: "estimateMin 2 + estimateMax 3", filter: { estimateMin: 2, estimateMax: 3 } },
    { name: "team + estimateMax 1", filter: { team, estimateMax: 1 } },
    { name: "dueAfter..dueBefore (next week)", filter: { dueAfter: daysAgo(0), dueBefore: daysAgo(-7) } },
    { name: "team + dueBefore (a month ago)", filter: { team, dueBefore: daysAgo(30) } },
    { name: "dueAfter (in a month)", filter: { dueAfter: daysAgo(-30) } },
    { name: "creator", filter: { creator: "me" } },
    // The seed makes every 20th issue of a team (number 3, 23, …) a sub-issue of the one before it.
    { name: "parent (one issue)", filter: { parent: `${team}-2` } },
    { name: "parent any", filter: { parent: "any" } },
    { name: "parent none", filter: { parent: "none" } },
    { name: "team + parent any", filter: { team, parent: "any" } },
    { name: "assignee none", filter: { assignee: "none" } },
    { name: "team + assignee none", filter: { team, assignee: "none" } },
    { name: "label none", filter: { label: ["none"] } },
  ];
  for (const special of issueSpecialFilterValues)
    shapes.push({ name: `special ${special}`, filter: { special: [special] } });
  for (const sort of SORTS)
    for (const s of [sort, `-${sort}`] as IssueFilter["sort"][]) {
      shapes.push({ name: `workspace, sort ${s}`, filter: { sort: s } });
      shapes.push({ name: `team, sort ${s}`, filter: { team, sort: s } });
    }
  return shapes;
}

/**
 * The same sorts one page after another by `cursor` (the contract's "Pagination"), deep in the list: the
 * cursor of the page at offset 5,000, so each plan shows whether the keyset condition reads the sort's index
 * from the cursor on, as the offset path's first page reads it (and not from the start, as an offset does).
 */
export async function cursorShapes(
  scope: WorkspaceScope,
  seeded: Seeded,
): Promise<{ name: string; filter: IssueFilter }[]> {
  const team = seeded.teamKeys[3]!;
  const shapes: { name: string; filter: IssueFilter }[] = [];
  const bases: { name: string; filter: IssueFilter }[] = [
    { name: "workspace", filter: {} },
    { name: "team", filter: { team } },
    { name: "label", filter: { label: ["bug"] } },
    { name: "special overdue,blocked", filter: { special: ["overdue", "blocked"] } },
  ];
  for (const sort of SORTS)
    for (const s of [sort, `-${sort}`] as IssueFilter["sort"][]) {
      bases.push({ name: `workspace, sort ${s}`, filter: { sort: s } });
      bases.push({ name: `team, sort ${s}`, filter: { team, sort: s } });
    }
  for (const base of bases) {
    const deep = base.filter.team || base.filter.special ? 500 : 5000;
    const page = JSON.parse((await listIssues(scope, { ...base.filter, offset: deep })).text) as {
      nextCursor: string | null;
    };
    if (page.nextCursor)
      shapes.push({
        name: `cursor after ${deep}: ${base.name}`,
        filter: { ...base.filter, cursor: page.nextCursor },
      });
  }
  return shapes;
}

/**
 * Every kind of statement `countIssues` produces as the board and its pages ask it: a board's columns (a
 * team by state, with and without open state types), a cycle's and a project's progress (by state type),
 * a list's group headers (each grouping, workspace-wide and per team), and counts under the filters whose
 * lists take another path (labels, a search, a special).
 */
export function countShapes(seeded: Seeded): { name: string; filter: IssueCountQuery }[] {
  const team = seeded.teamKeys[3]!;
  const shapes: { name: string; filter: IssueCountQuery }[] = [
    { name: "count: team by state (board columns)", filter: { team, groupBy: "state" } },
    {
      name: "count: team + open by state",
      filter: { team, stateType: ["backlog", "unstarted", "started"], groupBy: "state" },
    },
    {
      name: "count: team + cycle current by stateType",
      filter: { team, cycle: "current", groupBy: "stateType" },
    },
    { name: "count: project by stateType", filter: { project: "Project 7", groupBy: "stateType" } },
    { name: "count: team + label bug by state", filter: { team, label: ["bug"], groupBy: "state" } },
    { name: "count: team + q by state", filter: { team, q: "crash report", groupBy: "state" } },
    { name: "count: special mine by state", filter: { special: ["mine"], groupBy: "state" } },
    { name: "count: assignee me by stateType", filter: { assignee: "me", groupBy: "stateType" } },
  ];
  for (const groupBy of ["state", "assignee", "priority", "label", "project", "cycle", "team"] as const) {
    shapes.push({ name: `count: team by ${groupBy}`, filter: { team, groupBy } });
    shapes.push({ name: `count: workspace by ${groupBy}`, filter: { groupBy } });
  }
  return shapes;
}

/** A request scope for the bench workspace's admin, to compile filters exactly as the handler does. */
export function adminScope(em: EntityManager, seeded: Seeded): WorkspaceScope {
  return {
    em,
    requestId: "bench",
    caller: {
      userId: seeded.adminId,
      name: "Bench Admin",
      email: "bench@example.com",
      keyId: "bench",
      keyScope: "account",
      keyWorkspaceId: null,
      activeWorkspaceId: seeded.workspaceId,
    },
    workspace: { id: seeded.workspaceId, slug: seeded.workspaceSlug, name: "Bench", role: "admin" },
  } as unknown as WorkspaceScope;
}

/** EXPLAIN (ANALYZE, BUFFERS) of each list shape. */
export async function explainListShapes(em: EntityManager, seeded: Seeded): Promise<PlanReport[]> {
  const scope = adminScope(em, seeded);
  const reports: PlanReport[] = [];
  for (const shape of [...listShapes(seeded), ...(await cursorShapes(scope, seeded))]) {
    // The statements a page runs: in turn, until one answers with rows (`listIssues`).
    const { statements } = await issueListQuery(
      scope,
      shape.filter,
      await namesForFilter(scope, shape.filter),
    );
    let ms = 0;
    const plans: string[] = [];
    for (const [n, statement] of statements.entries()) {
      const median = await explainMedian(em, statement);
      ms += median.ms;
      const answered = (await sql(em, { sql: statement.text, params: statement.params })).length > 0;
      plans.push(
        statements.length > 1
          ? `-- statement ${n + 1} of ${statements.length}: ${answered || n === statements.length - 1 ? "answers" : "cannot tell the page (no rows)"}\n${median.plan}`
          : median.plan,
      );
      if (answered) break;
    }
    reports.push({ name: shape.name, filter: shape.filter, ms, plan: plans.join("\n\n") });
  }
  for (const shape of countShapes(seeded)) {
    const names = await namesForFilter(scope, shape.filter);
    const { statement } = await issueCountQuery(scope, shape.filter, names);
    const median = await explainMedian(em, { text: statement.sql, params: statement.params });
    reports.push({ name: shape.name, filter: shape.filter, ms: median.ms, plan: median.plan });
  }
  return reports;
}

/**
 * PLANS.md: every shape's execution time at each size seeded, with the growth from the first size to the
 * last when there are two, then each shape's plan at the largest size.
 */
export function plansMarkdown(runs: { issues: number; seeded: Seeded; plans: PlanReport[] }[]): string {
  const sizes = runs.map((r) => r.issues.toLocaleString("en-US"));
  const largest = runs.at(-1)!;
  const growth = runs.length > 1;
  const lines = [
    "# listIssues and countIssues query plans",
    "",
    `Generated by \`npm run bench\` (${new Date().toISOString()}) on ${sizes.join(" and ")} issues in ` +
      `${largest.seeded.teamKeys.length} teams (a database each); EXPLAIN (ANALYZE, BUFFERS), median of three runs, ` +
      "warm cache." +
      (growth
        ? " Growth is the last size's time over the first's: a shape whose time grows with the workspace rather than with its page shows a factor near the sizes' ratio."
        : ""),
    "",
    `| shape | filter | ${sizes.map((n) => `ms at ${n}`).join(" | ")}${growth ? " | growth" : ""} |`,
    `|---|---|${runs.map(() => "---:").join("|")}${growth ? "|---:" : ""}|`,
  ];
  for (const [i, plan] of largest.plans.entries()) {
    const times = runs.map((r) => r.plans[i]?.ms ?? Number.NaN);
    const factor = times.at(-1)! / times[0]!;
    lines.push(
      `| ${plan.name} | \`${JSON.stringify(plan.filter)}\` | ${times.map((t) => t.toFixed(2)).join(" | ")}` +
        `${growth ? ` | ${Number.isFinite(factor) ? `${factor.toFixed(1)}x` : "-"}` : ""} |`,
    );
  }
  lines.push("");
  for (const r of largest.plans)
    lines.push(
      `## ${r.name}`,
      "",
      `\`${JSON.stringify(r.filter)}\`${growth ? ` at ${sizes.at(-1)} issues` : ""}`,
      "",
      "```",
      r.plan,
      "```",
      "",
    );
  return lines.join("\n");
}

/** EXPLAIN (ANALYZE, BUFFERS) of a statement three times; the run with the median execution time. */
export async function explainMedian(
  em: EntityManager,
  query: { text: string; params: unknown[] },
): Promise<{ ms: number; plan: string }> {
  const runs: { ms: number; plan: string }[] = [];
  for (let i = 0; i < 3; i++) {
    const rows = await sql<{ "QUERY PLAN": string }>(em, {
      sql: `explain (analyze, buffers) ${query.text}`,
      params: query.params,
    });
    const plan = rows.map((r) => r["QUERY PLAN"]).join("\n");
    runs.push({ ms: Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? Number.NaN), plan });
  }
  runs.sort((a, b) => a.ms - b.ms);
  return runs[1]!;
}
