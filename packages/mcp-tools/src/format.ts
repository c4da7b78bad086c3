import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Schemas } from "@tracker/sdk";
import { z } from "zod";

type Issue = Schemas["Issue"];
type IssueDetail = Schemas["IssueDetail"];

/** The `format` input every reading tool takes. */
export const formatInput = z
  .enum(["text", "json"])
  .default("text")
  .describe("`text` (default): compact text. `json`: the full API payload, with every field.");

/** A calendar date; a short pattern rather than `z.iso.date()`, whose leap-year regex would flood the schema. */
export const dateInput = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "use YYYY-MM-DD");

export function textResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }] };
}

export function jsonResult(value: unknown): CallToolResult {
  return textResult(JSON.stringify(value, null, 2));
}

/** `P1` urgent … `P4` low; `P-` when no priority is set. */
export function priorityTag(priority: number): string {
  return priority === 0 ? "P-" : `P${priority}`;
}

/** One issue per line: `ENG-12  [In Progress]  P2  Title  @ada@example.com`. */
export function issueLine(issue: Issue): string {
  const parts = [issue.identifier, `[${issue.state.name}]`, priorityTag(issue.priority), issue.title];
  if (issue.assignee) parts.push(`@${issue.assignee.email}`);
  return parts.join("  ");
}

export function issueDetailText(issue: IssueDetail): string {
  const facts = [
    `team ${issue.team.key}`,
    issue.project ? `project "${issue.project.name}"` : "",
    issue.cycle ? `cycle ${issue.cycle.number}` : "",
    issue.dueDate ? `due ${issue.dueDate}` : "",
    issue.estimate !== null ? `estimate ${issue.estimate}` : "",
    issue.labels.length ? `labels ${issue.labels.join(", ")}` : "",
    issue.assignee ? `assignee ${issue.assignee.name} <${issue.assignee.email}>` : "unassigned",
  ].filter(Boolean);
  const lines = [
    issueLine(issue),
    facts.join(" · "),
    `created ${issue.createdAt} · updated ${issue.updatedAt}${issue.completedAt ? ` · completed ${issue.completedAt}` : ""}`,
    "",
    issue.description?.trim() || "(no description)",
  ];
  if (issue.subIssues.length) {
    lines.push("", "Sub-issues:");
    for (const sub of issue.subIssues) lines.push(`  ${sub.identifier}  [${sub.state}]  ${sub.title}`);
  }
  if (issue.relations.length) {
    lines.push("", "Relations:");
    for (const rel of issue.relations) {
      lines.push(`  ${rel.type} ${rel.issue.identifier}  [${rel.issue.state.name}]  ${rel.issue.title}`);
    }
  }
  if (issue.comments.length) {
    lines.push("", `Comments (${issue.comments.length}, oldest first):`);
    for (const c of issue.comments)
      lines.push(`- ${c.author.name} <${c.author.email}> at ${c.createdAt}:`, indent(c.body.trim()));
  }
  return lines.join("\n");
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}
