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
  summary: "Import issues from a Linear CSV export",
  description:
    "Reads the CSV Linear exports (Settings → Import / export → Export CSV) into team --team: ID, Title,\n" +
    "Description, Status (a state of the same name, else by Started, Completed and Canceled), Priority,\n" +
    "Estimate, Labels, Project (created when missing), Cycle Number and Name (cycles spanning their\n" +
    "issues), Creator, Assignee, Due Date, Created, Updated, Completed or Canceled, and Parent issue.\n" +
    "People are matched by --users (JSON or CSV of Linear name → email); others become placeholders.\n" +
    "Running it again updates what it created (by ID) and creates nothing twice. Needs an admin's key.",
  args: ["file"],
  options: {
    team: { type: "string", short: "t", value: "KEY", description: "Team to import into", complete: "teams" },
    users: { type: "string", value: "FILE", description: "Linear people to emails (JSON or CSV)" },
    "dry-run": { type: "boolean", description: "Print the mapping and counts; change nothing" },
  },
  examples: ["tracker import linear Linear.csv --team ENG --users people.json"],
});

const PRIORITIES: Record<string, 0 | 1 | 2 | 3 | 4> = { urgent: 1, high: 2, medium: 3, low: 4 };

/** Linear's dates: ISO, or JavaScript's `Tue Mar 05 2024 10:15:00 GMT+0000 (…)`. */
export function linearDate(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const parsed = Date.parse(text.replace(/\s*\(.*\)\s*$/, ""));
  return Number.isNaN(parsed) ? undefined : new Date(parsed).toISOString();
}

type State = Schemas["WorkflowState"];

function stateFor(states: State[], r: CsvRow): State {
  const sorted = [...states].sort((a, b) => a.position - b.position);
  const first = (type: State["type"]) => sorted.find((s) => s.type === type);
  const status = r.one("Status");
  const same = status ? sorted.find((s) => s.name.toLowerCase() === status.toLowerCase()) : undefined;
  if (same) return same;
  if (r.one("Canceled")) return first("canceled") ?? first("completed")!;
  if (r.one("Completed")) return first("completed")!;
  if (r.one("Started")) return first("started") ?? first("unstarted")!;
  if (status && /backlog|triage/i.test(status)) return first("backlog") ?? first("unstarted")!;
  return first("unstarted") ?? first("backlog")!;
}

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  if (!opts.team) throw new UsageError("give the team to import into: --team KEY");
  const team = opts.team;
  const rows = readCsv(opts.file);
  const people = new People("linear", opts.users);
  const states = await deps.tracker.teams.states(team, deps.call);

  const cycleName = (r: CsvRow) => {
    const n = r.one("Cycle Number");
    return n ? (r.one("Cycle Name") ?? `Cycle ${n}`) : undefined;
  };
  const windows = new Map<string, { n: number; startsAt: number; endsAt: number }>();
  for (const r of rows) {
    const name = cycleName(r);
    if (!name) continue;
    const start = Date.parse(linearDate(r.one("Created")) ?? "");
    const end = Date.parse(linearDate(r.one("Completed") ?? r.one("Canceled") ?? r.one("Updated")) ?? "");
    const w = windows.get(name) ?? {
      n: Number(r.one("Cycle Number")),
      startsAt: Number.POSITIVE_INFINITY,
      endsAt: 0,
    };
    if (!Number.isNaN(start)) w.startsAt = Math.min(w.startsAt, start);
    if (!Number.isNaN(end)) w.endsAt = Math.max(w.endsAt, end);
    windows.set(name, w);
  }
  const cycles: { name: string; startsAt: string; endsAt: string }[] = [];
  let previousEnd = 0;
  for (const [name, w] of [...windows].sort((a, b) => a[1].n - b[1].n)) {
    const startsAt = Math.max(Number.isFinite(w.startsAt) ? w.startsAt : previousEnd, previousEnd);
    const endsAt = Math.max(w.endsAt, startsAt + 86_400_000);
    cycles.push({ name, startsAt: new Date(startsAt).toISOString(), endsAt: new Date(endsAt).toISOString() });
    previousEnd = endsAt;
  }

  const items: ImportItem[] = [];
  for (const r of rows) {
    const id = r.one("ID");
    const title = r.one("Title");
    if (!id || !title) continue;
    const state = stateFor(states, r);
    const estimate = Number(r.one("Estimate") ?? Number.NaN);
    const labels = r
      .all("Labels")
      .flatMap((cell) => cell.split(","))
      .map((l) => l.trim())
      .filter(Boolean);
    const created = linearDate(r.one("Created"));
    const updated = linearDate(r.one("Updated")) ?? created;
    const finished = linearDate(r.one("Completed") ?? r.one("Canceled"));
    const due = linearDate(r.one("Due Date"));
    const parent = r.one("Parent issue");
    const creator = people.email(r.one("Creator"));
    const assignee = people.email(r.one("Assignee"));
    const cycle = cycleName(r);
    items.push({
      source: { system: "linear", id, url: null },
      team,
      title: title.slice(0, 255),
      description: r.one("Description") ?? null,
      priority: PRIORITIES[(r.one("Priority") ?? "").toLowerCase()] ?? 0,
      state: state.name,
      labels: [...new Set(labels)].slice(0, 50),
      ...(Number.isFinite(estimate) ? { estimate: Math.max(0, Math.round(estimate)) } : {}),
      ...(due
        ? {
            dueDate: /^\d{4}-\d{2}-\d{2}/.test(r.one("Due Date")!)
              ? r.one("Due Date")!.slice(0, 10)
              : due.slice(0, 10),
          }
        : {}),
      project: r.one("Project") ?? null,
      ...(parent ? { parentSource: { system: "linear", id: parent } } : {}),
      ...(creator ? { creator } : {}),
      assignee: assignee ?? null,
      ...(created ? { createdAt: created } : {}),
      ...(updated ? { updatedAt: updated } : {}),
      ...(state.type === "completed" || state.type === "canceled"
        ? { completedAt: finished ?? updated ?? null }
        : {}),
      ...(cycle ? { cycle: cycle as never } : {}),
    });
  }
  const labels = [...new Set(items.flatMap((i) => i.labels ?? []))];
  const projects = [...new Set(items.flatMap((i) => (i.project ? [i.project] : [])))];
  if (opts["dry-run"]) {
    deps.stdout.write(
      [
        `${items.length} issues into ${team}`,
        `labels: ${labels.join(", ") || "none"}`,
        `projects: ${projects.join(", ") || "none"}`,
        `cycles: ${cycles.map((c) => c.name).join(", ") || "none"}`,
        `sub-issues: ${items.filter((i) => i.parentSource).length}`,
        `people: ${
          Object.entries(people.names)
            .map(([e, n]) => `${n} → ${e}`)
            .join(", ") || "none"
        }`,
      ].join("\n") + "\n",
    );
    return;
  }
  await ensureLabels(
    deps,
    deps.tracker,
    labels.map((name) => ({ name })),
  );
  await ensureProjects(
    deps,
    deps.tracker,
    projects.map((name) => ({ name, teams: [team] })),
  );
  const numbers = await ensureCycles(deps, deps.tracker, team, cycles);
  for (const i of items) if (i.cycle != null) i.cycle = numbers.get(i.cycle as unknown as string) ?? null;
  const tally = await sendIssues(deps, deps.tracker, parentsFirst(items), people.names);
  if (opts.json) deps.stdout.write(`${JSON.stringify({ ...tally, identifiers: undefined })}\n`);
  else say(deps, tallyLine(tally));
}
