import type { Schemas } from "@tracker/sdk";
import { priorityName } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts } from "../../command.js";
import { bold, dim, printJson, relativeTime } from "../../output.js";

export const spec = defineCommand({
  name: "issues view",
  summary: "Show an issue with its comments, sub-issues and relations",
  args: ["id"],
  options: {},
  examples: ["tracker issues view ENG-123", "tracker issues view ENG-123 --json | jq .comments"],
});

type IssueDetail = Schemas["IssueDetail"];

/** `key:\tvalue` lines when piped, like `gh issue view`, so scripts can grep a field. */
function printFields(deps: Deps, issue: IssueDetail): void {
  const fields: [string, string][] = [
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
    ["created", issue.createdAt],
    ["updated", issue.updatedAt],
  ];
  for (const [key, value] of fields) deps.stdout.write(`${key}:\t${value}\n`);
  deps.stdout.write("--\n");
  if (issue.description) deps.stdout.write(`${issue.description}\n`);
}

function printReadable(deps: Deps, issue: IssueDetail): void {
  const out = (line = "") => deps.stdout.write(`${line}\n`);
  out(`${bold(deps, issue.title)} ${dim(deps, issue.identifier)}`);
  const facts = [
    issue.state.name,
    priorityName(issue.priority) || "No priority",
    issue.assignee ? `assigned to ${issue.assignee.name}` : "unassigned",
    issue.project ? `project ${issue.project.name}` : "",
    issue.cycle ? `cycle ${issue.cycle.number}` : "",
    issue.dueDate ? `due ${issue.dueDate}` : "",
    `updated ${relativeTime(issue.updatedAt)}`,
  ].filter(Boolean);
  out(dim(deps, facts.join(" • ")));
  if (issue.labels.length) out(`Labels: ${issue.labels.join(", ")}`);
  out();
  out(issue.description?.trim() || dim(deps, "No description provided."));
  if (issue.subIssues.length) {
    out();
    out(bold(deps, "Sub-issues"));
    for (const sub of issue.subIssues) out(`  ${sub.identifier}  [${sub.state}]  ${sub.title}`);
  }
  if (issue.relations.length) {
    out();
    out(bold(deps, "Relations"));
    for (const rel of issue.relations) {
      out(
        `  ${rel.type.replace("_", " ")} ${rel.issue.identifier}  [${rel.issue.state.name}]  ${rel.issue.title}`,
      );
    }
  }
  for (const comment of issue.comments) {
    out();
    out(`${bold(deps, comment.author.name)} ${dim(deps, `commented ${relativeTime(comment.createdAt)}`)}`);
    out(comment.body.trim());
  }
}

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const issue = await deps.tracker.issues.get(opts.id);
  if (opts.json) return printJson(deps, issue);
  if (deps.isTTY) printReadable(deps, issue);
  else printFields(deps, issue);
}
