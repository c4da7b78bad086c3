import type { Schemas } from "@tracker/sdk";
import { priorityName } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts } from "../../command.js";
import { palette, printFields, printJson, printList, relativeTime, stateStyle } from "../../output.js";
import { describe } from "../inbox/inbox.js";
import { humanSize } from "./attach.js";

export const spec = defineCommand({
  summary: "Show an issue with its comments, sub-issues, relations and attachments",
  description:
    "On a terminal it reads like the issue page; piped, it prints `field:<TAB>value` lines, then\n--, then the description.",
  args: ["id"],
  options: {
    web: { type: "boolean", description: "Open the issue on the web board instead" },
    history: {
      type: "boolean",
      description: "Show the issue's history instead: every change, who made it and when, oldest first",
    },
  },
  examples: [
    "tracker issues view ENG-123",
    "tracker issues view ENG-123 --json comments --jq '.comments[].body'",
    "tracker issues view ENG-123 | grep ^state:",
    "tracker issues view ENG-123 --history",
  ],
});

type IssueDetail = Schemas["IssueDetail"];

function printPiped(deps: Deps, issue: IssueDetail): void {
  printFields(deps, [
    ["identifier", issue.identifier],
    ["title", issue.title],
    ["team", issue.team.key],
    ["state", issue.state.name],
    ["priority", priorityName(issue.priority)],
    ["assignee", issue.assignee?.email ?? ""],
    ["labels", issue.labels.join(",")],
    ["project", issue.project?.name ?? ""],
    ["cycle", issue.cycle ? String(issue.cycle.number) : ""],
    ["estimate", issue.estimate === null ? "" : String(issue.estimate)],
    ["due", issue.dueDate ?? ""],
    ["comments", String(issue.comments.length)],
    ["branch", issue.branchName],
    ["pull requests", issue.pullRequests.map((pr) => pr.url).join(",")],
    ["attachments", issue.media.map((m) => m.title ?? m.id).join(",")],
    ["created", issue.createdAt],
    ["updated", issue.updatedAt],
    ["archived", issue.archivedAt ?? ""],
  ]);
  deps.stdout.write("--\n");
  if (issue.description) deps.stdout.write(`${issue.description}\n`);
}

function printReadable(deps: Deps, issue: IssueDetail): void {
  const c = palette(deps);
  const out = (line = "") => deps.stdout.write(`${line}\n`);
  out(`${c.bold(issue.title)} ${c.cyan(issue.identifier)}`);
  if (issue.archivedAt)
    out(c.yellow(`Archived ${issue.archivedAt.slice(0, 10)} (tracker issues unarchive ${issue.identifier})`));
  const facts = [
    stateStyle(c, issue.state.type)(issue.state.name),
    priorityName(issue.priority) || "No priority",
    issue.assignee ? `assigned to ${issue.assignee.name}` : "unassigned",
    issue.project ? `project ${issue.project.name}` : "",
    issue.cycle ? `cycle ${issue.cycle.number}` : "",
    issue.estimate !== null ? `estimate ${issue.estimate}` : "",
    issue.dueDate ? `due ${issue.dueDate}` : "",
    `updated ${relativeTime(issue.updatedAt)}`,
  ].filter(Boolean);
  out(facts.join(c.dim(" • ")));
  if (issue.labels.length) out(`Labels: ${c.magenta(issue.labels.join(", "))}`);
  out();
  out(issue.description?.trim() || c.dim("No description provided."));
  if (issue.subIssues.length) {
    out();
    out(c.bold("Sub-issues"));
    for (const sub of issue.subIssues) out(`  ${c.cyan(sub.identifier)}  [${sub.state}]  ${sub.title}`);
  }
  if (issue.relations.length) {
    out();
    out(c.bold("Relations"));
    for (const rel of issue.relations) {
      out(
        `  ${rel.type.replace("_", " ")} ${c.cyan(rel.issue.identifier)}  [${rel.issue.state.name}]  ${rel.issue.title}`,
      );
    }
  }
  if (issue.pullRequests.length) {
    out();
    out(c.bold("Pull requests"));
    for (const pr of issue.pullRequests)
      out(`  ${c.cyan(`${pr.repository}#${pr.number}`)}  [${pr.state}]  ${pr.title}  ${c.dim(pr.url)}`);
  }
  if (issue.media.length) {
    out();
    out(c.bold("Attachments"));
    for (const m of issue.media) {
      const size = typeof m.metadata.size === "number" ? humanSize(m.metadata.size) : "";
      out(`  ${m.title ?? m.id}  ${c.dim([m.metadata.contentType, size].filter(Boolean).join(", "))}`);
      out(`    ${c.dim(new URL(m.url, deps.connection.baseUrl).toString())}`);
    }
  }
  for (const comment of issue.comments) {
    out();
    out(`${c.bold(comment.author.name)} ${c.dim(`commented ${relativeTime(comment.createdAt)}`)}`);
    out(comment.body.trim());
  }
}

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  if (opts.web) {
    const { boardUrl, openInBrowser } = await import("../../browser.js");
    return openInBrowser(deps, await boardUrl(deps, `issue/${opts.id.toUpperCase()}`), false);
  }
  if (opts.history) return printHistory(opts, deps);
  const issue = await deps.tracker.issues.get(opts.id, deps.call);
  if (opts.json) return printJson(deps, issue);
  if (deps.isTTY) printReadable(deps, issue);
  else printPiped(deps, issue);
}

type HistoryEvent = Schemas["ActivityEvent"];

/** `--history`: the whole history (`getIssueHistory`, page after page), one change a line. */
async function printHistory(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const events: HistoryEvent[] = [];
  for await (const e of deps.tracker.issues.iterateHistory(opts.id, deps.call)) events.push(e);
  await printList<HistoryEvent>(
    deps,
    opts,
    events,
    [
      {
        header: "WHEN",
        value: (e) => e.createdAt,
        tty: (e) => relativeTime(e.createdAt),
        style: (_, c) => c.gray,
      },
      { header: "WHO", value: (e) => e.actor?.name ?? "automation", max: 20 },
      { header: "WHAT", value: (e) => describe(e), flex: true, max: 90 },
    ],
    "No history.",
  );
}
