import type { Schemas } from "@tracker/sdk";
import { CommandError, type Deps, defineCommand, type Opts, UsageError } from "../../command.js";
import { progress, say } from "../../output.js";
import { People } from "./people.js";
import {
  ensureCycles,
  ensureLabels,
  ensureProjects,
  type ImportItem,
  sendIssues,
  tallyLine,
} from "./send.js";

export const spec = defineCommand({
  summary: "Import a GitHub repository's issues",
  description:
    "Reads OWNER/REPO's issues through GitHub's REST API (token from GH_TOKEN or GITHUB_TOKEN; --base-url\n" +
    "for GitHub Enterprise, e.g. https://github.example.com/api/v3) into team --team: title, body, labels\n" +
    "with their colours, assignee and author (by --users, a JSON or CSV of login → email; others become\n" +
    "placeholders), open or closed (closed as not planned → canceled), created, updated and closed times,\n" +
    "comments with their authors and times, and milestones as cycles or projects (--milestones). Pull\n" +
    "requests are skipped. Each issue keeps its number and URL as its source, so running it again (after\n" +
    "a kill, say) updates what is there and creates nothing twice. Waits out GitHub's rate limit. Needs an\n" +
    "admin's key.",
  args: ["repo"],
  options: {
    team: { type: "string", short: "t", value: "KEY", description: "Team to import into", complete: "teams" },
    users: { type: "string", value: "FILE", description: "GitHub logins to emails (JSON or CSV)" },
    milestones: {
      type: "string",
      value: "cycles|projects",
      choices: ["cycles", "projects"],
      description: "What milestones become (default projects)",
    },
    "base-url": {
      type: "string",
      value: "URL",
      description: "GitHub's API (default https://api.github.com)",
    },
    "dry-run": { type: "boolean", description: "Print the mapping and counts; change nothing" },
  },
  examples: [
    "GH_TOKEN=$(gh auth token) tracker import github acme/web --team ENG --users people.json",
    "tracker import github acme/web --team ENG --milestones cycles --dry-run",
  ],
});

interface GhUser {
  login: string;
}
interface GhLabel {
  name: string;
  color?: string;
  description?: string | null;
}
interface GhMilestone {
  number: number;
  title: string;
  description: string | null;
  state: "open" | "closed";
  created_at: string;
  due_on: string | null;
  closed_at: string | null;
}
interface GhIssue {
  id: number;
  number: number;
  title: string;
  body: string | null;
  state: "open" | "closed";
  state_reason?: string | null;
  html_url: string;
  user: GhUser | null;
  assignee: GhUser | null;
  assignees?: GhUser[];
  labels: (string | GhLabel)[];
  milestone: GhMilestone | null;
  comments: number;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  pull_request?: unknown;
}
interface GhComment {
  id: number;
  html_url: string;
  body?: string;
  user: GhUser | null;
  created_at: string;
  updated_at: string;
}

type State = Schemas["WorkflowState"];

/** The longest wait for the rate limit before giving up (an hour: GitHub's window). */
const MAX_WAIT_MS = 3_600_000;

/**
 * How long GitHub asks to wait before trying again, or undefined when the answer is not a rate limit:
 * `retry-after` (seconds; secondary limits), else `x-ratelimit-reset` (epoch seconds) once
 * `x-ratelimit-remaining` is 0.
 */
export function rateLimitWait(status: number, headers: Record<string, string | undefined>, now = Date.now()) {
  if (status !== 403 && status !== 429) return undefined;
  const after = Number(headers["retry-after"]);
  if (Number.isFinite(after) && after >= 0) return after * 1000;
  if (headers["x-ratelimit-remaining"] === "0") {
    const reset = Number(headers["x-ratelimit-reset"]);
    if (Number.isFinite(reset)) return Math.max(0, reset * 1000 - now) + 1000;
  }
  return undefined;
}

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  if (!opts.team) throw new UsageError("give the team to import into: --team KEY");
  const match = /^([\w.-]+)\/([\w.-]+)$/.exec(opts.repo);
  if (!match) throw new UsageError(`expected OWNER/REPO, not "${opts.repo}"`);
  const [, owner, repo] = match as unknown as [string, string, string];
  const team = opts.team;
  const token = deps.env.GH_TOKEN || deps.env.GITHUB_TOKEN;
  const { Octokit } = await import("@octokit/rest");
  const octokit = new Octokit({
    ...(token ? { auth: token } : {}),
    baseUrl: (opts["base-url"] ?? "https://api.github.com").replace(/\/$/, ""),
    userAgent: "tracker-import",
    request: { signal: deps.call.signal },
  });
  const bar = progress(deps);
  // Rate limits: wait as long as GitHub says (retry-after, or until x-ratelimit-reset), then ask again.
  octokit.hook.wrap("request", async (request, options) => {
    for (;;) {
      try {
        return await request(options);
      } catch (err) {
        const e = err as { status?: number; response?: { headers?: Record<string, string | undefined> } };
        const wait = rateLimitWait(e.status ?? 0, e.response?.headers ?? {});
        if (wait === undefined || wait > MAX_WAIT_MS) throw err;
        bar.update(`GitHub's rate limit: waiting ${Math.ceil(wait / 1000)}s…`);
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  });
  const ghFail = (err: unknown): never => {
    const e = err as { status?: number; message?: string };
    throw new CommandError(`GitHub: ${e.status ? `${e.status} ` : ""}${e.message ?? String(err)}`);
  };

  bar.update(`Reading ${owner}/${repo}…`);
  const labels = (await octokit
    .paginate("GET /repos/{owner}/{repo}/labels", { owner, repo, per_page: 100 })
    .catch(ghFail)) as GhLabel[];
  const milestones = (await octokit
    .paginate("GET /repos/{owner}/{repo}/milestones", { owner, repo, state: "all", per_page: 100 })
    .catch(ghFail)) as GhMilestone[];
  const all = (await octokit
    .paginate("GET /repos/{owner}/{repo}/issues", {
      owner,
      repo,
      state: "all",
      sort: "created",
      direction: "asc",
      per_page: 100,
    })
    .catch(ghFail)) as GhIssue[];
  const issues = all.filter((i) => !i.pull_request);
  const pulls = all.length - issues.length;
  bar.done();

  const people = new People("github", opts.users);
  const states = [...(await deps.tracker.teams.states(team, deps.call))].sort(
    (a, b) => a.position - b.position,
  );
  const first = (...types: State["type"][]) =>
    types.map((t) => states.find((s) => s.type === t)).find(Boolean)!;
  const asCycles = opts.milestones === "cycles";
  const milestoneName = (m: GhMilestone) => m.title.slice(0, 100);

  const cycles: { name: string; startsAt: string; endsAt: string }[] = [];
  if (asCycles) {
    let previousEnd = 0;
    for (const m of [...milestones].sort((a, b) => a.created_at.localeCompare(b.created_at))) {
      const start = Math.max(Date.parse(m.created_at), previousEnd);
      const planned = Date.parse(m.due_on ?? m.closed_at ?? "") || start + 14 * 86_400_000;
      const end = Math.max(planned, start + 86_400_000);
      cycles.push({
        name: milestoneName(m),
        startsAt: new Date(start).toISOString(),
        endsAt: new Date(end).toISOString(),
      });
      previousEnd = end;
    }
  }
  const labelName = (l: string | GhLabel) => (typeof l === "string" ? l : l.name);
  const items: ImportItem[] = issues.map((i) => {
    const state =
      i.state === "closed"
        ? i.state_reason === "not_planned"
          ? first("canceled", "completed")
          : first("completed")
        : first("unstarted", "backlog");
    const assignee = people.email((i.assignee ?? i.assignees?.[0])?.login);
    const creator = people.email(i.user?.login);
    return {
      source: { system: "github", id: `${owner}/${repo}#${i.number}`, url: i.html_url },
      team,
      title: i.title.slice(0, 255),
      description: i.body ?? null,
      state: state.name,
      labels: [...new Set(i.labels.map(labelName))].slice(0, 50),
      ...(i.milestone && !asCycles ? { project: milestoneName(i.milestone) } : {}),
      ...(i.milestone && asCycles ? { cycle: milestoneName(i.milestone) as never } : {}),
      ...(creator ? { creator } : {}),
      assignee: assignee ?? null,
      createdAt: i.created_at,
      updatedAt: i.updated_at,
      ...(i.state === "closed" ? { completedAt: i.closed_at ?? i.updated_at } : {}),
    };
  });

  if (opts["dry-run"]) {
    const closed = issues.filter((i) => i.state === "closed").length;
    deps.stdout.write(
      [
        `${issues.length} issues from ${owner}/${repo} into ${team} (${issues.length - closed} open, ${closed} closed); ${pulls} pull requests skipped`,
        `labels: ${labels.map((l) => `${l.name} #${l.color ?? ""}`).join(", ") || "none"}`,
        `milestones as ${asCycles ? "cycles" : "projects"}: ${milestones.map(milestoneName).join(", ") || "none"}`,
        `states: open → ${first("unstarted", "backlog").name}, closed → ${first("completed").name}, not planned → ${first("canceled", "completed").name}`,
        `people: ${
          Object.entries(people.names)
            .map(([e, n]) => `${n} → ${e}`)
            .join(", ") || "none"
        }`,
        `comments: ${issues.reduce((n, i) => n + i.comments, 0)}`,
      ].join("\n") + "\n",
    );
    return;
  }

  await ensureLabels(
    deps,
    deps.tracker,
    labels.map((l) => ({
      name: l.name,
      ...(l.color ? { color: `#${l.color}` } : {}),
      description: l.description ?? null,
    })),
  );
  if (asCycles) {
    const numbers = await ensureCycles(deps, deps.tracker, team, cycles);
    for (const item of items)
      if (item.cycle != null) item.cycle = numbers.get(item.cycle as unknown as string) ?? null;
  } else {
    await ensureProjects(
      deps,
      deps.tracker,
      milestones.map((m) => ({
        name: milestoneName(m),
        teams: [team],
        description: m.description || null,
        ...(m.due_on ? { targetDate: m.due_on.slice(0, 10) } : {}),
      })),
    );
  }
  // Comments are read issue by issue, and each stretch of issues is sent as soon as its comments are in:
  // a run cut off part way has imported what it sent, and the next run picks up from there.
  const total = {
    created: 0,
    updated: 0,
    comments: { created: 0, updated: 0 },
    identifiers: new Map<string, string>(),
  };
  const STRETCH = Number(deps.env.TRACKER_GITHUB_STRETCH) || 50;
  for (let start = 0; start < issues.length; start += STRETCH) {
    const stretch = items.slice(start, start + STRETCH);
    for (const [n, item] of stretch.entries()) {
      const issue = issues[start + n]!;
      if (issue.comments === 0) continue;
      bar.update(`Reading comments of #${issue.number} (${start + n + 1} of ${issues.length})…`);
      const comments = (await octokit
        .paginate("GET /repos/{owner}/{repo}/issues/{issue_number}/comments", {
          owner,
          repo,
          issue_number: issue.number,
          per_page: 100,
        })
        .catch(ghFail)) as GhComment[];
      item.comments = comments.map((c) => {
        const author = people.email(c.user?.login);
        return {
          source: { system: "github", id: String(c.id), url: c.html_url },
          body: c.body?.trim() || "(empty)",
          ...(author ? { author } : {}),
          createdAt: c.created_at,
          updatedAt: c.updated_at,
        };
      });
    }
    bar.done();
    const tally = await sendIssues(deps, deps.tracker, stretch, people.names);
    total.created += tally.created;
    total.updated += tally.updated;
    total.comments.created += tally.comments.created;
    total.comments.updated += tally.comments.updated;
  }
  bar.done();
  if (opts.json)
    deps.stdout.write(`${JSON.stringify({ ...total, identifiers: undefined, pullsSkipped: pulls })}\n`);
  else say(deps, `${tallyLine(total)}; ${pulls} pull requests skipped`);
}
