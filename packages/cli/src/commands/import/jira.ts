import type { Schemas } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, UsageError } from "../../command.js";
import { say } from "../../output.js";
import { type CsvRow, readCsv } from "./csv.js";
import { People } from "./people.js";
import {
  ensureCycles,
  ensureLabels,
  ensureProjects,
  type ImportItem,
  parentsFirst,
  sendIssues,
  tallyLine,
} from "./send.js";

export const spec = defineCommand({
  summary: "Import issues from a Jira CSV export",
  description:
    "Reads the CSV Jira exports (Filters → Export → CSV, all fields) into team --team: Summary,\n" +
    "Description, Status by its Status Category (To Do, In Progress, Done; Done with a resolution such as\n" +
    "Won't Do, Duplicate or Cannot Reproduce becomes canceled; a status named as one of the team's states\n" +
    "keeps that state), Priority (Highest → urgent, High, Medium, Low, Lowest → low), Issue Type and Labels\n" +
    "as labels, epics as projects, sprints as cycles, sub-tasks as sub-issues (by Parent), Assignee,\n" +
    "Reporter, Created, Updated, Resolved, Due date, Story Points as the estimate, and every Comment with\n" +
    "its author and date. Jira's dates (dd/MMM/yy h:mm a) are read in --utc-offset (default UTC). People\n" +
    "are matched by --users (JSON or CSV of Jira name → email); others become placeholders. Running it\n" +
    "again updates what it created (by Issue id) and creates nothing twice. Needs an admin's key.",
  args: ["file"],
  options: {
    team: { type: "string", short: "t", value: "KEY", description: "Team to import into", complete: "teams" },
    users: { type: "string", value: "FILE", description: "Jira people to emails (JSON or CSV)" },
    site: {
      type: "string",
      value: "URL",
      description: "The Jira site, for each issue's link back (https://acme.atlassian.net)",
    },
    "utc-offset": {
      type: "string",
      value: "±HH:MM",
      description: "The time zone of the export's dates (default +00:00)",
    },
    "dry-run": { type: "boolean", description: "Print the mapping and counts; change nothing" },
  },
  examples: [
    "tracker import jira Jira.csv --team ENG",
    "tracker import jira Jira.csv --team ENG --users people.json --site https://acme.atlassian.net",
  ],
});

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** Jira's `dd/MMM/yy h:mm a` (also without the time, and with a four-digit year) as ISO time. */
export function jiraDate(text: string | undefined, offset = "+00:00"): string | undefined {
  if (!text) return undefined;
  const m = /^(\d{1,2})\/([A-Za-z]{3})\/(\d{2}|\d{4})(?:\s+(\d{1,2}):(\d{2})(?:\s*([AaPp][Mm]))?)?$/.exec(
    text.trim(),
  );
  if (!m) {
    const parsed = Date.parse(text);
    return Number.isNaN(parsed) ? undefined : new Date(parsed).toISOString();
  }
  const month = MONTHS.indexOf(m[2]!.toLowerCase());
  if (month < 0) return undefined;
  const year = m[3]!.length === 2 ? 2000 + Number(m[3]) : Number(m[3]);
  let hour = Number(m[4] ?? 0);
  const ampm = m[6]?.toLowerCase();
  if (ampm === "pm" && hour < 12) hour += 12;
  if (ampm === "am" && hour === 12) hour = 0;
  const pad = (n: number) => String(n).padStart(2, "0");
  const local = `${year}-${pad(month + 1)}-${pad(Number(m[1]))}T${pad(hour)}:${m[5] ?? "00"}:00${offset}`;
  return new Date(local).toISOString();
}

const PRIORITIES: Record<string, 0 | 1 | 2 | 3 | 4> = {
  highest: 1,
  blocker: 1,
  critical: 1,
  high: 2,
  major: 2,
  medium: 3,
  low: 4,
  minor: 4,
  lowest: 4,
  trivial: 4,
};

/** Resolutions that mean the work was not done: the issue is canceled, not completed. */
const NOT_DONE =
  /won'?t (do|fix)|duplicate|cannot reproduce|can'?t reproduce|declined|incomplete|rejected|obsolete/i;

type State = Schemas["WorkflowState"];

/** The team's state for a Jira status: the same name, else the first of the type its category means. */
export function stateFor(
  states: State[],
  status: string | undefined,
  category: string | undefined,
  resolution: string | undefined,
): State {
  const sorted = [...states].sort((a, b) => a.position - b.position);
  const first = (type: State["type"]) => sorted.find((s) => s.type === type);
  const cat = (category ?? "").toLowerCase();
  const done = cat === "done" || (!cat && !!resolution && resolution.toLowerCase() !== "unresolved");
  if (done && resolution && NOT_DONE.test(resolution)) return first("canceled") ?? first("completed")!;
  const same = status ? sorted.find((s) => s.name.toLowerCase() === status.toLowerCase()) : undefined;
  if (same) return same;
  if (done) return first("completed")!;
  if (cat === "in progress") return first("started") ?? first("unstarted")!;
  if (status && /backlog/i.test(status)) return first("backlog") ?? first("unstarted")!;
  return first("unstarted") ?? first("backlog")!;
}

/** A Jira comment cell: `date;author;text` (the text may hold further semicolons). */
export function jiraComment(cell: string, offset?: string) {
  const m = /^([^;]*);([^;]*);([\s\S]*)$/.exec(cell);
  if (!m) return { body: cell };
  return { createdAt: jiraDate(m[1], offset), author: m[2]!.trim(), body: m[3]! };
}

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  if (!opts.team) throw new UsageError("give the team to import into: --team KEY");
  const offset = opts["utc-offset"] ?? "+00:00";
  if (!/^[+-]\d{2}:\d{2}$/.test(offset))
    throw new UsageError(`invalid --utc-offset "${offset}"; expected +HH:MM or -HH:MM`);
  const rows = readCsv(opts.file);
  const people = new People("jira", opts.users);
  const team = opts.team;
  const states = await deps.tracker.teams.states(team, deps.call);
  const site = opts.site?.replace(/\/$/, "");

  const isEpic = (r: CsvRow) => r.one("Issue Type")?.toLowerCase() === "epic";
  const epics = rows.filter(isEpic);
  const epicName = new Map<string, string>();
  for (const e of epics) {
    for (const id of [e.one("Issue id"), e.one("Issue key")]) if (id) epicName.set(id, e.one("Summary")!);
  }
  const idOfKey = new Map(rows.map((r) => [r.one("Issue key") ?? "", r.one("Issue id") ?? ""]));

  // Sprints as cycles: from the first issue created in one to the last one finished, one after another.
  const sprintOf = (r: CsvRow) => r.all("Sprint").at(-1);
  const windows = new Map<string, { startsAt: number; endsAt: number }>();
  for (const r of rows) {
    const sprint = sprintOf(r);
    if (!sprint || isEpic(r)) continue;
    const start = Date.parse(jiraDate(r.one("Created"), offset) ?? "");
    const end = Date.parse(jiraDate(r.one("Resolved") ?? r.one("Updated"), offset) ?? "");
    const w = windows.get(sprint) ?? { startsAt: Number.POSITIVE_INFINITY, endsAt: 0 };
    if (!Number.isNaN(start)) w.startsAt = Math.min(w.startsAt, start);
    if (!Number.isNaN(end)) w.endsAt = Math.max(w.endsAt, end);
    windows.set(sprint, w);
  }
  const cycles: { name: string; startsAt: string; endsAt: string }[] = [];
  let previousEnd = 0;
  for (const [name, w] of [...windows].sort((a, b) => a[1].startsAt - b[1].startsAt)) {
    const startsAt = Math.max(Number.isFinite(w.startsAt) ? w.startsAt : previousEnd, previousEnd);
    const endsAt = Math.max(w.endsAt, startsAt + 86_400_000);
    cycles.push({ name, startsAt: new Date(startsAt).toISOString(), endsAt: new Date(endsAt).toISOString() });
    previousEnd = endsAt;
  }

  const labelsOf = (r: CsvRow) => {
    const type = r.one("Issue Type");
    return [...new Set([...(type ? [type] : []), ...r.all("Labels")])].slice(0, 50);
  };
  const items: ImportItem[] = [];
  for (const r of rows.filter((x) => !isEpic(x))) {
    const id = r.one("Issue id") ?? r.one("Issue key");
    const key = r.one("Issue key");
    const summary = r.one("Summary");
    if (!id || !summary) continue;
    const parentRef = r.one("Parent") ?? r.one("Parent id");
    const epicLink = r.one("Custom field (Epic Link)");
    const project = (parentRef && epicName.get(parentRef)) ?? (epicLink && epicName.get(epicLink)) ?? null;
    const parentId =
      parentRef && !epicName.has(parentRef) ? (idOfKey.get(parentRef) ?? parentRef) : undefined;
    const state = stateFor(states, r.one("Status"), r.one("Status Category"), r.one("Resolution"));
    const points = Number(r.one("Custom field (Story Points)") ?? r.one("Story Points") ?? Number.NaN);
    const due = jiraDate(r.one("Due date"), offset);
    const created = jiraDate(r.one("Created"), offset);
    const updated = jiraDate(r.one("Updated"), offset) ?? created;
    const resolved = jiraDate(r.one("Resolved"), offset);
    const assignee = people.email(r.one("Assignee"), r.one("Assignee Id"));
    const creator = people.email(r.one("Reporter"), r.one("Reporter Id")) ?? people.email(r.one("Creator"));
    const sprint = sprintOf(r);
    items.push({
      source: { system: "jira", id, url: site && key ? `${site}/browse/${key}` : null },
      team,
      title: summary.slice(0, 255),
      description: r.one("Description") ?? null,
      priority: PRIORITIES[(r.one("Priority") ?? "").toLowerCase()] ?? 0,
      state: state.name,
      labels: labelsOf(r),
      ...(Number.isFinite(points) ? { estimate: Math.max(0, Math.round(points)) } : {}),
      ...(due ? { dueDate: due.slice(0, 10) } : {}),
      project,
      ...(parentId ? { parentSource: { system: "jira", id: parentId } } : {}),
      ...(creator ? { creator } : {}),
      assignee: assignee ?? null,
      ...(created ? { createdAt: created } : {}),
      ...(updated ? { updatedAt: updated } : {}),
      ...(state.type === "completed" || state.type === "canceled"
        ? { completedAt: resolved ?? updated ?? null }
        : {}),
      comments: r.all("Comment").map((cell, n) => {
        const c = jiraComment(cell, offset);
        const author = people.email(c.author);
        return {
          source: { system: "jira", id: `${id}/comment/${n + 1}` },
          body: c.body.trim() || "(empty)",
          ...(author ? { author } : {}),
          ...(c.createdAt ? { createdAt: c.createdAt, updatedAt: c.createdAt } : {}),
        };
      }),
      ...(sprint ? { cycle: sprint as never } : {}),
    });
  }
  const labels = [...new Set(items.flatMap((i) => i.labels ?? []))];
  const projects = epics.map((e) => ({
    name: e.one("Summary")!.slice(0, 100),
    teams: [team],
    description: e.one("Description") ?? null,
  }));
  if (opts["dry-run"]) {
    const byState = new Map<string, number>();
    for (const i of items) byState.set(i.state!, (byState.get(i.state!) ?? 0) + 1);
    const lines = [
      `${items.length} issues into ${team}, ${items.reduce((n, i) => n + (i.comments?.length ?? 0), 0)} comments`,
      `states: ${[...byState].map(([s, n]) => `${s} ${n}`).join(", ")}`,
      `labels (issue types and labels): ${labels.join(", ") || "none"}`,
      `projects (epics): ${projects.map((p) => p.name).join(", ") || "none"}`,
      `cycles (sprints): ${cycles.map((c) => c.name).join(", ") || "none"}`,
      `sub-issues: ${items.filter((i) => i.parentSource).length}`,
      `people: ${
        Object.entries(people.names)
          .map(([e, n]) => `${n} → ${e}`)
          .join(", ") || "none"
      }`,
    ];
    deps.stdout.write(`${lines.join("\n")}\n`);
    return;
  }
  await ensureLabels(
    deps,
    deps.tracker,
    labels.map((name) => ({ name })),
  );
  await ensureProjects(deps, deps.tracker, projects);
  const numbers = await ensureCycles(deps, deps.tracker, team, cycles);
  for (const i of items) if (i.cycle != null) i.cycle = numbers.get(i.cycle as unknown as string) ?? null;
  const tally = await sendIssues(deps, deps.tracker, parentsFirst(items), people.names);
  if (opts.json) deps.stdout.write(`${JSON.stringify({ ...tally, identifiers: undefined })}\n`);
  else say(deps, tallyLine(tally));
}
