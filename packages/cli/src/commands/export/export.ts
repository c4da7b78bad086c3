import { writeFileSync } from "node:fs";
import type { Schemas } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, UsageError } from "../../command.js";
import { progress, say } from "../../output.js";
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, ArchiveWriter, bytesOf, type Manifest } from "../import/archive.js";

export const spec = defineCommand({
  summary: "Write the whole workspace to one archive (or its issues to CSV)",
  description:
    "Writes a tar archive (gzipped when FILE ends in .gz or .tgz) of JSON Lines files with a manifest:\n" +
    "teams with their workflow states, labels with their colours, members (by email), projects,\n" +
    "initiatives, cycles, issues (archived ones too), comments, relations, documents, status updates,\n" +
    "each issue's history, and the attachments with their files. `tracker import tracker FILE` reads it\n" +
    "into another workspace. --issues-csv writes the issues as CSV for spreadsheets instead (to FILE, or\n" +
    "standard output without --out). Admins export everything they see; others, what they see.",
  args: [],
  options: {
    out: { type: "string", short: "o", value: "FILE", description: "The archive (or CSV) to write" },
    "issues-csv": { type: "boolean", description: "Only the issues, as CSV" },
  },
  examples: [
    "tracker export --out acme.tar.gz",
    "tracker export --issues-csv --out issues.csv",
    "tracker export --issues-csv | head",
  ],
});

type Issue = Schemas["Issue"];

/** Every issue, archived or not, oldest first. */
async function allIssues(deps: Deps): Promise<Issue[]> {
  const issues: Issue[] = [];
  for await (const issue of deps.tracker.issues.iterate({ archived: "any", limit: 100 }, deps.call))
    issues.push(issue);
  return issues.sort(
    (a, b) => a.createdAt.localeCompare(b.createdAt) || a.identifier.localeCompare(b.identifier),
  );
}

const CSV_COLUMNS = [
  "Identifier",
  "Title",
  "Team",
  "State",
  "State type",
  "Priority",
  "Estimate",
  "Assignee",
  "Labels",
  "Project",
  "Cycle",
  "Due date",
  "Created",
  "Updated",
  "Completed",
  "Archived",
  "Description",
] as const;

const PRIORITY = ["", "Urgent", "High", "Medium", "Low"];

/** One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break. */
export function csvCell(value: unknown): string {
  const text = value == null ? "" : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function issuesCsv(issues: Issue[]): string {
  const rows = issues.map((i) => [
    i.identifier,
    i.title,
    i.team.key,
    i.state.name,
    i.state.type,
    PRIORITY[i.priority] ?? "",
    i.estimate,
    i.assignee?.email ?? "",
    i.labels.join(", "),
    i.project?.name ?? "",
    i.cycle?.number ?? "",
    i.dueDate ?? "",
    i.createdAt,
    i.updatedAt,
    i.completedAt ?? "",
    i.archivedAt ?? "",
    i.description ?? "",
  ]);
  return [CSV_COLUMNS, ...rows].map((r) => `${r.map(csvCell).join(",")}\r\n`).join("");
}

async function historyOf(deps: Deps, identifier: string) {
  const events: Schemas["ActivityEvent"][] = [];
  let cursor: string | undefined;
  do {
    const page = await deps.tracker.issues.history(
      identifier,
      { limit: 200, ...(cursor ? { cursor } : {}) } as never,
      deps.call,
    );
    events.push(...(page.events as Schemas["ActivityEvent"][]));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return events;
}

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  if (opts["issues-csv"]) {
    const csv = issuesCsv(await allIssues(deps));
    if (opts.out) writeFileSync(opts.out, csv);
    else deps.stdout.write(csv);
    return;
  }
  if (!opts.out) throw new UsageError("give the archive to write: --out FILE (e.g. workspace.tar.gz)");
  const bar = progress(deps);
  const t = deps.tracker;
  const workspaces = await t.workspaces.list(deps.call);
  const named = deps.connection.workspace;
  const listed = workspaces as { id: string; name: string; slug: string; active?: boolean }[];
  const ws =
    listed.find((w) => named !== undefined && [w.id, w.slug, w.name].includes(named)) ??
    listed.find((w) => w.active) ??
    listed[0]!;
  const counts: Record<string, number> = {};
  const archive = new ArchiveWriter(opts.out);
  const lines = async (name: string, objects: unknown[]) => {
    counts[name] = objects.length;
    await archive.lines(name, objects);
  };
  try {
    bar.update("Exporting teams…");
    const teams = await t.teams.listAll(deps.call);
    const withStates = [];
    for (const team of teams)
      withStates.push({
        ...(await t.teams.get(team.key, deps.call)),
        states: await t.teams.states(team.key, deps.call),
      });
    await lines("teams.jsonl", withStates);
    await lines("labels.jsonl", await t.labels.list({}, deps.call));
    const users = await t.users.list(deps.call);
    await lines(
      "members.jsonl",
      users.map((u) => ({ id: u.id, email: u.email, name: u.name, role: u.role })),
    );
    const projects: unknown[] = [];
    for await (const p of t.projects.iterate({}, deps.call)) projects.push(p);
    await lines("projects.jsonl", projects);
    const initiatives: unknown[] = [];
    for await (const i of t.initiatives.iterate({}, deps.call)) initiatives.push(i);
    await lines("initiatives.jsonl", initiatives);
    const cycles = [];
    for (const team of teams)
      for (const c of await t.cycles.list(team.key, deps.call).catch(() => []))
        cycles.push({ ...c, team: { id: team.id, key: team.key } });
    await lines("cycles.jsonl", cycles);

    const issues = await allIssues(deps);
    const comments: unknown[] = [];
    const relations: unknown[] = [];
    const history: unknown[] = [];
    const attachments: unknown[] = [];
    const emailById = new Map(users.map((u) => [u.id, u.email]));
    const exported: unknown[] = [];
    for (const [n, issue] of issues.entries()) {
      bar.update(`Exporting issue ${n + 1} of ${issues.length}…`);
      const detail = await t.issues.get(issue.identifier, deps.call);
      const events = await historyOf(deps, issue.identifier);
      const created = events.find((e) => e.type === "issue_created");
      exported.push({
        ...issue,
        creator: created?.actor ? { ...created.actor, email: emailById.get(created.actor.id) ?? null } : null,
      });
      for (const c of detail.comments)
        comments.push({ issue: { id: issue.id, identifier: issue.identifier }, ...c });
      for (const r of detail.relations)
        relations.push({ ...r, from: { id: issue.id, identifier: issue.identifier } });
      for (const e of events) history.push({ ...e, issue: { id: issue.id, identifier: issue.identifier } });
      for (const a of await t.issues.attachments(issue.identifier, deps.call)) {
        const name = a.metadata.filename ?? a.title ?? a.id;
        const file = `files/attachments/${a.id}/${name.replace(/[/\\]/g, "_")}`;
        const download = await t.issues.download(a.url, deps.call);
        await archive.add(file, await bytesOf(download.body));
        attachments.push({ ...a, issue: { id: issue.id, identifier: issue.identifier }, file });
      }
    }
    await lines("issues.jsonl", exported);
    await lines("comments.jsonl", comments);
    await lines("relations.jsonl", relations);
    await lines("history.jsonl", history);
    await lines("attachments.jsonl", attachments);
    await lines("documents.jsonl", await t.documents.list({}, deps.call));
    // Status updates are listed per subject: every team's, project's and initiative's.
    const updates = new Map<string, unknown>();
    const subjects = [
      ...teams.map((x) => ({ team: x.key })),
      ...(projects as { id: string }[]).map((x) => ({ project: x.id })),
      ...(initiatives as { id: string }[]).map((x) => ({ initiative: x.id })),
    ];
    for (const subject of subjects)
      for (const u of await t.updates.list(subject, deps.call)) updates.set(u.id, { ...u, subject });
    await lines("updates.jsonl", [...updates.values()]);
    const manifest: Manifest = {
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      exportedAt: new Date().toISOString(),
      server: deps.connection.baseUrl,
      workspace: { id: ws.id, name: ws.name, slug: ws.slug },
      counts,
    };
    await archive.add("manifest.json", `${JSON.stringify(manifest, null, 2)}\n`);
  } finally {
    bar.done();
    await archive.finish();
  }
  if (opts.json) deps.stdout.write(`${JSON.stringify({ out: opts.out, counts })}\n`);
  else
    say(
      deps,
      `Exported ${counts["issues.jsonl"]} issues, ${counts["comments.jsonl"]} comments and ${counts["attachments.jsonl"]} attachments to ${opts.out}`,
    );
}
