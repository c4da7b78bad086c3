import type { CallOptions, Tracker } from "@tracker/sdk";
import { z } from "zod";
import { facts, issueLines, issueRow, shortTime, toIssueRow } from "../format.js";
import { projectRefInput } from "../inputs.js";
import { projectLine, projectRow, readProject, toProjectRow, toUpdateRow, updateRow } from "../planning.js";
import { defineTool } from "../tool.js";

export const projectDetail = projectRow.extend({
  description: z.string().nullable(),
  startDate: z.string().nullable(),
  members: z.array(z.string()),
  updates: z.array(updateRow),
  openIssues: z.array(issueRow),
  moreOpenIssues: z.boolean(),
});
export type ProjectDetail = z.output<typeof projectDetail>;

/** A project with its progress, health, members, latest status updates and open issues by priority. */
export async function projectDetailOf(
  tracker: Tracker,
  ref: string,
  read: CallOptions,
): Promise<ProjectDetail> {
  const { project, description } = await readProject(tracker, ref, read);
  const [members, updates, issues] = await Promise.all([
    tracker.projects.members(project.id, read),
    tracker.updates.list({ project: project.id }, read),
    tracker.issues.list(
      { project: project.id, stateType: ["backlog", "unstarted", "started"], sort: "priority", limit: 20 },
      read,
    ),
  ]);
  return {
    ...toProjectRow(project),
    description,
    startDate: project.startDate,
    members: members.map((m) => m.email),
    updates: updates.slice(0, 3).map(toUpdateRow),
    openIssues: issues.items.map(toIssueRow),
    moreOpenIssues: issues.nextOffset !== null,
  };
}

export function projectDetailText(p: ProjectDetail): string {
  const lines = [
    projectLine(p),
    facts(p.startDate && `start ${p.startDate}`, p.members.length > 0 && `members ${p.members.join(", ")}`),
    "",
    p.description?.trim() || "(no description)",
  ];
  if (p.updates.length) {
    lines.push("", "Latest status updates:");
    for (const u of p.updates)
      lines.push(`  ${shortTime(u.createdAt)} ${u.health} "${u.title}" by ${u.author}`);
  }
  lines.push("", `Open issues by priority${p.moreOpenIssues ? " (first 20)" : ""}:`);
  lines.push(...(p.openIssues.length ? issueLines(p.openIssues).map((l) => `  ${l}`) : ["  none"]));
  return lines.filter((l, i) => l !== "" || lines[i - 1] !== "").join("\n");
}

export const getProjectTool = defineTool({
  name: "get_project",
  title: "Get project",
  description:
    "Read a project by name: status, health, progress, lead, dates, teams, members, description, latest " +
    "status updates and open issues by priority.",
  input: { project: projectRefInput },
  output: { project: projectDetail },
  readOnly: true,
  destructive: false,
  idempotent: true,
  async run(input, { tracker, read }) {
    const project = await projectDetailOf(tracker, input.project, read);
    return { text: projectDetailText(project), data: { project } };
  },
  about: (input) => ({ project: input.project }),
});
