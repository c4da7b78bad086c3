import type { Schemas, Tracker } from "@tracker/sdk";
import { CommandError, type Deps, defineCommand, type Opts, UsageError } from "../../command.js";
import { say } from "../../output.js";
import { ARCHIVE_FORMAT, jsonLines, type Manifest, readArchive } from "./archive.js";
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
  summary: "Import a workspace archive written by `tracker export`",
  description:
    "Recreates, in the workspace --into names (else the current one), what the archive holds: teams and\n" +
    "their workflow states, labels with their colours, projects, cycles (by number and dates), issues with\n" +
    "their comments, original creators, assignees, times and history of creation, sub-issues, archived\n" +
    "issues and relations. People are matched by email: members keep their issues; anyone else is held by\n" +
    "a placeholder until an invite to their email is accepted. Into an empty workspace the issues keep\n" +
    "their identifiers. Running it again changes nothing: each issue and comment remembers what it came\n" +
    "from. Needs an admin's key.",
  args: ["archive"],
  options: {
    into: { type: "string", value: "WORKSPACE", description: "Workspace to import into (slug, name or id)" },
  },
  examples: ["tracker import tracker acme.tar.gz --into acme-copy"],
});

type Team = Omit<Schemas["Team"], "states"> & { states: Schemas["WorkflowState"][] };
type Issue = Schemas["Issue"] & { creator?: { email?: string | null } | null };
type Comment = Schemas["Comment"] & { issue: { id: string } };
type Relation = Schemas["IssueRelation"] & { from: { id: string; identifier: string } };
type Cycle = Schemas["Cycle"] & { team: { key: string } };
type Member = { email: string; name: string };

const CREATABLE = new Set(["blocks", "related", "duplicate"]);

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const entries = await readArchive(opts.archive).catch((err: Error) => {
    throw new UsageError(`cannot read ${opts.archive}: ${err.message}`);
  });
  const manifestText = entries.get("manifest.json")?.toString("utf8");
  const manifest = manifestText ? (JSON.parse(manifestText) as Manifest) : undefined;
  if (manifest?.format !== ARCHIVE_FORMAT)
    throw new UsageError(`${opts.archive} is not an archive of tracker export (no manifest.json)`);
  const tracker: Tracker = opts.into
    ? await deps.makeTracker({ ...deps.connection, workspace: opts.into })
    : deps.tracker;
  const call = deps.call;

  const teams = jsonLines<Team>(entries, "teams.jsonl").filter((t) => !t.personal);
  const have = new Map((await tracker.teams.listAll(call)).map((t) => [t.key, t]));
  for (const team of teams) {
    if (!have.has(team.key))
      await tracker.teams.create(
        {
          key: team.key,
          name: team.name,
          cyclesEnabled: team.cyclesEnabled,
          cycleLengthWeeks: team.cycleLengthWeeks,
        },
        call,
      );
    const states = await tracker.teams.states(team.key, call);
    const byName = new Map(states.map((s) => [s.name.toLowerCase(), s]));
    for (const state of [...team.states].sort((a, b) => a.position - b.position)) {
      const had = byName.get(state.name.toLowerCase());
      if (!had)
        await tracker.teams.createState(
          team.key,
          { name: state.name, type: state.type, color: state.color },
          call,
        );
      else if (had.color !== state.color)
        await tracker.teams.updateState(team.key, had.id, { color: state.color }, call);
    }
  }
  const teamKeys = new Set(teams.map((t) => t.key));

  await ensureLabels(deps, tracker, jsonLines<Schemas["Label"]>(entries, "labels.jsonl"), true);
  const projects = jsonLines<Schemas["Project"]>(entries, "projects.jsonl");
  await ensureProjects(
    deps,
    tracker,
    projects.map((p) => ({
      name: p.name,
      teams: p.teams.map((t) => t.key).filter((k) => teamKeys.has(k)),
      description: p.description ?? null,
      status: p.status,
      startDate: p.startDate ?? null,
      targetDate: p.targetDate ?? null,
    })),
  );

  // Cycles by number: the archive's numbers mapped to the ones the target gives them.
  const cycleNumber = new Map<string, number>();
  const cycles = jsonLines<Cycle>(entries, "cycles.jsonl");
  for (const team of teams) {
    const own = cycles.filter((c) => c.team.key === team.key).sort((a, b) => a.number - b.number);
    const named = own.map((c) => ({
      name: c.name ?? `Cycle ${c.number}`,
      startsAt: c.startsAt,
      endsAt: c.endsAt,
    }));
    const numbers = await ensureCycles(deps, tracker, team.key, named);
    for (const [n, c] of own.entries())
      cycleNumber.set(`${team.key}\0${c.number}`, numbers.get(named[n]!.name)!);
  }

  const members = jsonLines<Member>(entries, "members.jsonl");
  const names: Record<string, string> = Object.fromEntries(members.map((m) => [m.email, m.name]));
  const issues = jsonLines<Issue>(entries, "issues.jsonl").filter((i) => teamKeys.has(i.team.key));
  const comments = jsonLines<Comment>(entries, "comments.jsonl");
  for (const c of comments) names[c.author.email] ??= c.author.name;
  const commentsOf = new Map<string, Comment[]>();
  for (const c of comments) commentsOf.set(c.issue.id, [...(commentsOf.get(c.issue.id) ?? []), c]);
  const src = (id: string) => ({ system: "tracker", id });
  const items: ImportItem[] = issues.map((i) => ({
    source: { ...src(i.id), url: `${manifest.server.replace(/\/$/, "")}/issues/${i.identifier}` },
    team: i.team.key,
    title: i.title,
    description: i.description,
    priority: i.priority,
    estimate: i.estimate,
    dueDate: i.dueDate,
    state: i.state.name,
    labels: i.labels,
    project: i.project?.name ?? null,
    cycle: i.cycle ? (cycleNumber.get(`${i.team.key}\0${i.cycle.number}`) ?? null) : null,
    ...(i.parentId ? { parentSource: src(i.parentId) } : {}),
    ...(i.creator?.email ? { creator: i.creator.email } : {}),
    assignee: i.assignee?.email ?? null,
    createdAt: i.createdAt,
    updatedAt: i.updatedAt,
    completedAt: i.completedAt,
    archivedAt: i.archivedAt,
    comments: (commentsOf.get(i.id) ?? []).map((c) => ({
      source: src(c.id),
      body: c.body,
      author: c.author.email,
      createdAt: c.createdAt,
      updatedAt: c.updatedAt,
    })),
  }));
  const tally = await sendIssues(deps, tracker, parentsFirst(items), names);
  const identifierOf = (id: string) => tally.identifiers.get(`tracker\0${id}`);

  const failures: string[] = [];
  const existing = new Map<string, Set<string>>();
  for (const r of jsonLines<Relation>(entries, "relations.jsonl")) {
    if (!CREATABLE.has(r.type)) continue;
    const from = identifierOf(r.from.id);
    const to = identifierOf(r.issue.id);
    if (!from || !to) continue;
    if (!existing.has(from))
      existing.set(
        from,
        new Set((await tracker.issues.relations(from, call)).map((x) => `${x.type}\0${x.issue.identifier}`)),
      );
    if (existing.get(from)!.has(`${r.type}\0${to}`)) continue;
    await tracker.issues
      .addRelation(from, { issue: to, type: r.type as "blocks" | "related" | "duplicate" }, call)
      .then(() => existing.get(from)!.add(`${r.type}\0${to}`))
      .catch((err: Error) => failures.push(`relation ${from} ${r.type} ${to}: ${err.message}`));
  }
  if (opts.json) deps.stdout.write(`${JSON.stringify({ ...tally, identifiers: undefined })}\n`);
  else say(deps, tallyLine(tally));
  for (const f of failures) say(deps, f);
  if (failures.length) throw new CommandError(`${failures.length} relations were not imported`);
}
