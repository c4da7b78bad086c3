import { type CallOptions, type ResponseOf, responseOf, type Schemas, type Tracker } from "@tracker/sdk";
import { z } from "zod";
import { facts, indent, issueLine, shortTime, toIssueRow } from "../format.js";
import { identifierInput } from "../inputs.js";
import { CODE_HOST, eventSummaryUnder, type Trust } from "../lockdown.js";
import { relationWords } from "../relations.js";
import { defineTool } from "../tool.js";
import { eventSummary } from "./get-digest.js";

const related = z.object({ identifier: z.string(), title: z.string(), state: z.string() });

const issueOutput = z.object({
  identifier: z.string(),
  title: z.string(),
  state: z.string(),
  priority: z.number(),
  assignee: z.string().nullable(),
  team: z.string(),
  project: z.string().nullable(),
  cycle: z.number().nullable(),
  labels: z.array(z.string()),
  dueDate: z.string().nullable(),
  estimate: z.number().nullable(),
  parent: z.string().nullable(),
  description: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  completedAt: z.string().nullable(),
  comments: z.array(
    z.object({ id: z.string(), author: z.string(), body: z.string(), createdAt: z.string() }),
  ),
  subIssues: z.array(related),
  relations: z.array(related.extend({ type: z.string() })),
  links: z.array(z.object({ url: z.string(), title: z.string().nullable() })),
  documents: z.array(z.object({ id: z.string(), title: z.string() })),
  branchName: z.string(),
  /** `name (type, size bytes) url`: one string each keeps tools/list small (schemas.test.ts). */
  attachments: z.array(z.string()),
  pullRequests: z.array(
    z.object({
      repository: z.string(),
      number: z.number(),
      title: z.string(),
      state: z.string(),
      url: z.string(),
    }),
  ),
});
export type IssueView = z.output<typeof issueOutput>;

/** The issue as `get_issue` and the issue resource show it, from the issue and its page's data. */
export function issueView(issue: Schemas["IssueDetail"], page: ResponseOf<"getIssuePageData">): IssueView {
  return {
    ...toIssueRow(issue),
    team: issue.team.key,
    project: issue.project?.name ?? null,
    cycle: issue.cycle?.number ?? null,
    labels: issue.labels,
    estimate: issue.estimate,
    parent: page.issue.parent?.identifier ?? null,
    description: issue.description,
    createdAt: issue.createdAt,
    updatedAt: issue.updatedAt,
    completedAt: issue.completedAt,
    comments: issue.comments.map((c) => ({
      id: c.id,
      author: c.author.email,
      body: c.body,
      createdAt: c.createdAt,
    })),
    subIssues: issue.subIssues.map((s) => ({ identifier: s.identifier, title: s.title, state: s.state })),
    relations: issue.relations.map((r) => ({
      type: r.type,
      identifier: r.issue.identifier,
      title: r.issue.title,
      state: r.issue.state.name,
    })),
    links: page.links.map((l) => ({ url: l.url, title: l.title })),
    documents: page.documents.map((d) => ({ id: d.document.id, title: d.document.title })),
    branchName: issue.branchName,
    // Signed links (valid an hour), made absolute against the server the issue was read from.
    attachments: issue.media.map(
      (m) =>
        `${m.title ?? m.id} (${m.metadata.contentType}, ${m.metadata.size} bytes) ` +
        new URL(m.url, responseOf(issue)?.url ?? "http://localhost").toString(),
    ),
    pullRequests: issue.pullRequests.map((pr) => ({
      repository: pr.repository,
      number: pr.number,
      title: pr.title,
      state: pr.state,
      url: pr.url,
    })),
  };
}

/**
 * The issue as text. `archivedAt` (the issue's, when archived) is said in the text only: a field in the
 * output schema would cost every session's default tools/list (schemas.test.ts).
 */
export function issueViewText(v: IssueView, archivedAt?: string | null): string {
  const lines = [
    issueLine(v),
    ...(archivedAt
      ? [
          `ARCHIVED since ${shortTime(archivedAt)}: hidden from lists; archive_issue with archived false restores it`,
        ]
      : []),
    facts(
      `team ${v.team}`,
      v.project && `project "${v.project}"`,
      v.cycle !== null && `cycle ${v.cycle}`,
      v.estimate !== null && `estimate ${v.estimate}`,
      v.labels.length > 0 && `labels ${v.labels.join(", ")}`,
      v.parent && `parent ${v.parent}`,
      `branch ${v.branchName}`,
    ),
    facts(
      `created ${shortTime(v.createdAt)}`,
      `updated ${shortTime(v.updatedAt)}`,
      v.completedAt && `completed ${shortTime(v.completedAt)}`,
    ),
    "",
    v.description?.trim() || "(no description)",
  ];
  const section = (title: string, items: string[]) => {
    if (items.length) lines.push("", `${title}:`, ...items);
  };
  section(
    "Sub-issues",
    v.subIssues.map((s) => `  ${s.identifier} [${s.state}] ${s.title}`),
  );
  section(
    "Relations",
    v.relations.map(
      (r) =>
        `  ${relationWords(r.type as Schemas["IssueRelationSide"])} ${r.identifier} [${r.state}] ${r.title}`,
    ),
  );
  section(
    "Links",
    v.links.map((l) => `  ${l.url}${l.title ? ` (${l.title})` : ""}`),
  );
  section(
    "Pull requests",
    v.pullRequests.map((pr) => `  ${pr.repository}#${pr.number} [${pr.state}] ${pr.title} ${pr.url}`),
  );
  section(
    "Attachments",
    v.attachments.map((a) => `  ${a}`),
  );
  section(
    "Documents",
    v.documents.map((d) => `  ${d.title} (id ${d.id})`),
  );
  section(
    `Comments, oldest first`,
    v.comments.map((c) => `- ${c.author} ${shortTime(c.createdAt)} (id ${c.id}):\n${indent(c.body.trim())}`),
  );
  return lines.join("\n");
}

type HistoryEvent = Schemas["ActivityEvent"];
type HistoryRow = { at: string; actor: string | null; type: string; summary: string };

/**
 * Lockdown of one issue: the title and description by whoever last wrote them (from its history), its
 * comments by their authors, its pull requests' titles and history lines from the code host. Changes
 * `view` and `history` in place; answers whether anything was fenced or left out.
 */
async function lockDown(
  trust: Trust,
  view: IssueView,
  issue: Schemas["IssueDetail"],
  events: HistoryEvent[],
  history: HistoryRow[],
): Promise<boolean> {
  let held = false;
  const writerOf = async (field: "title" | "description") => {
    const last = events.findLast(
      (e) =>
        e.type === "issue_created" ||
        (e.type === "issue_updated" &&
          Object.hasOwn((e.payload.changes ?? {}) as Record<string, unknown>, field)),
    );
    return last ? trust.untrustedWriter(last.actor) : undefined;
  };
  const titleBy = await writerOf("title");
  if (titleBy) {
    view.title = trust.line(view.title, titleBy);
    held = true;
  }
  const descriptionBy = view.description ? await writerOf("description") : undefined;
  if (descriptionBy && view.description) {
    view.description = trust.block(view.description, descriptionBy);
    held = true;
  }
  for (const [n, comment] of issue.comments.entries()) {
    const by = await trust.untrustedWriter(comment.author);
    if (by && view.comments[n]) {
      view.comments[n]!.body = trust.block(view.comments[n]!.body, by);
      held = true;
    }
  }
  for (const pr of view.pullRequests) {
    pr.title = trust.line(pr.title, CODE_HOST);
    held = true;
  }
  for (const [n, e] of events.entries()) {
    const row = history[n]!;
    const shown = await eventSummaryUnder(trust, e, row.summary);
    row.summary = shown.summary;
    held ||= shown.held;
  }
  return held;
}

/** One issue as get_issue and the issue resource show it, its history when asked, under lockdown's trust. */
export async function readIssue(
  tracker: Tracker,
  identifier: string,
  read: CallOptions,
  trust: Trust | undefined,
  withHistory = false,
): Promise<{ text: string; view: IssueView; history?: HistoryRow[] }> {
  const [issue, page] = await Promise.all([
    tracker.issues.get(identifier, read),
    tracker.issues.pageData(identifier, read),
  ]);
  const view = issueView(issue, page);
  // Lockdown needs the history to know who wrote the title and description.
  const events: HistoryEvent[] = [];
  if (withHistory || trust)
    for await (const e of tracker.issues.iterateHistory(identifier, read)) events.push(e);
  const history: HistoryRow[] = events.map((e) => ({
    at: e.createdAt,
    actor: e.actor?.name ?? null,
    type: e.type,
    summary: eventSummary(e),
  }));
  const held = trust ? await lockDown(trust, view, issue, events, history) : false;
  const text = (held ? `${trust!.legend()}\n` : "") + issueViewText(view, issue.archivedAt);
  if (!withHistory) return { text, view };
  const lines = history.map((e) => `  ${shortTime(e.at)} ${e.actor ?? "automation"}: ${e.summary}`);
  return { text: `${text}\n\nHistory, oldest first:\n${lines.join("\n")}`, view, history };
}

export const getIssueTool = defineTool({
  name: "get_issue",
  title: "Get issue",
  description:
    "Read one issue (`ENG-123`): fields, description, sub-issues, relations, links, pull requests, " +
    "documents, attachments, comments (with ids) and git branch name.",
  input: {
    identifier: identifierInput,
    history: z.boolean().optional().describe("Also list every change to the issue, oldest first."),
  },
  output: {
    issue: issueOutput,
    history: z
      .array(
        z.object({ at: z.string(), actor: z.string().nullable(), type: z.string(), summary: z.string() }),
      )
      .optional(),
  },
  readOnly: true,
  destructive: false,
  idempotent: true,
  async run(input, { tracker, read, trust }) {
    const { text, view, history } = await readIssue(tracker, input.identifier, read, trust, input.history);
    return { text, data: history ? { issue: view, history } : { issue: view } };
  },
  about: (input) => ({ identifier: input.identifier }),
});
