import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { expect } from "vitest";
import { textOf } from "./connect.js";

/**
 * One good and one bad call of every tool, in an order that works on the workspace `useWorkspace` makes.
 * The good call must succeed with `structuredContent` and text matching `good`; the bad one must come back
 * as `isError` with text that says how to recover (`bad`), never a stack trace.
 */
export interface ToolCall {
  tool: string;
  good: Record<string, unknown>;
  goodText: RegExp;
  bad: Record<string, unknown>;
  badText: RegExp;
}

export const TOOL_CALLS: ToolCall[] = [
  {
    tool: "search_issues",
    good: { team: "ENG", special: ["overdue"], sort: "due" },
    goodText:
      /^ENG-1 \[Backlog\] P1 @ada due \d{4}-\d\d-\d\d Login fails on Safari\nENG-2 \[Backlog\] P- @- /,
    bad: { team: "ENG", state: "Doing" },
    badText:
      /^invalid_request: No state "Doing" in this team\. States: Backlog, Todo, In Progress, In Review, Done, Canceled\.$/,
  },
  {
    tool: "get_issue",
    good: { identifier: "eng-1" },
    goodText:
      /^ENG-1 \[Backlog\] P1 .*Login fails on Safari\nteam ENG · project "Launch" · labels bug.*\n[\s\S]*Documents:\n {2}Runbook/,
    bad: { identifier: "ENG-999" },
    badText: /not_found: .*ENG-999[\s\S]*search_issues with `query`/,
  },
  {
    tool: "create_issue",
    good: {
      team: "ENG",
      title: "Crash when saving a draft",
      labels: ["bug"],
      priority: "high",
      blocks: ["ENG-2"],
    },
    goodText: /^Created ENG-9 \[Backlog\] P2 @- Crash when saving a draft\nblocks ENG-2$/,
    bad: { team: "NOPE", title: "Lost" },
    badText: /not_found: No team "NOPE"[\s\S]*Team keys you can use: ENG, OPS/,
  },
  {
    tool: "update_issues",
    good: { identifiers: ["ENG-2", "ENG-6"], priority: "high", state: "Todo" },
    goodText: /^Updated:\nENG-2 \[Todo\] P2 @- .*\nENG-6 \[Todo\] P2 @- Rate limit docs$/,
    bad: { identifiers: ["ENG-2"] },
    badText: /^Nothing to change: give at least one of state/,
  },
  {
    tool: "comment_issue",
    good: { identifier: "ENG-1", body: "Reproduced on Safari 17." },
    goodText: /^Commented on ENG-1 as ada@example\.com at .* \(comment [0-9a-f-]{36}\)\.$/,
    bad: { identifier: "ENG-1", body: "" },
    badText: /Input validation error[\s\S]*body/,
  },
  {
    tool: "relate_issues",
    good: { identifier: "ENG-3", type: "duplicated_by", issue: "ENG-7" },
    goodText: /^Related: ENG-3 is duplicated by ENG-7\.$/,
    bad: { identifier: "ENG-3", type: "blocks" },
    badText: /^Give `identifier`, `type` and `issue` to relate two issues, `pairs` for several/,
  },
  {
    tool: "move_issues",
    good: { identifiers: ["ENG-6"], team: "OPS" },
    goodText: /^ENG-6 → OPS-1$/,
    bad: { identifiers: ["ENG-5"], team: "NOPE" },
    badText: /not_found: No team "NOPE"[\s\S]*Team keys you can use: ENG, OPS/,
  },
  {
    tool: "list_teams",
    good: { all: true },
    goodText:
      /^ENG Engineering · cycles · states: Backlog \(backlog\), Todo \(unstarted\), In Progress \(started\), In Review \(started\), Done \(completed\), Canceled \(canceled\)\n/,
    bad: { all: "yes" },
    badText: /Input validation error[\s\S]*all/,
  },
  {
    tool: "list_members",
    good: { team: "ENG" },
    goodText: /^Ada Lovelace <ada@example\.com> admin \(you\)\n/,
    bad: { team: "NOPE" },
    badText: /not_found[\s\S]*Team keys you can use: ENG, OPS/,
  },
  {
    tool: "list_labels",
    good: {},
    goodText: /^bug\ndefect\nui\n\(3 labels, no more\)$/,
    bad: { cursor: "not-a-cursor" },
    badText: /^That cursor is not one this tool gave out/,
  },
  {
    tool: "list_views",
    good: {},
    goodText: /^My overdue \(issues, team ENG\) special=overdue$/,
    bad: { name: "My overdue" },
    badText: /Input validation error[\s\S]*name/,
  },
  {
    tool: "save_view",
    good: { name: "Bugs by priority", filters: { label: ["bug"] }, sort: "priority" },
    goodText: /^Created view Bugs by priority \(issues\) label=bug sort priority\. search_issues/,
    bad: { name: "Urgent", filters: { labels: ["bug"] } },
    badText: /^A saved view of issues cannot filter by labels; its filters are: team, state, stateType/,
  },
  {
    tool: "whoami",
    good: {},
    goodText: /^You are Ada Lovelace <ada@example\.com>, admin\.\n\* acme/,
    bad: { me: true },
    badText: /Input validation error/,
  },
  {
    tool: "get_digest",
    good: { since: "2020-01-01" },
    goodText: /commented|Nothing happened/,
    bad: { since: "yesterday" },
    badText: /Input validation error[\s\S]*since/,
  },
  {
    tool: "list_agent_sessions",
    good: { identifier: "ENG-4" },
    goodText: /^[0-9a-f-]{36} ENG-4 @triage-bot \w+ \(delegated\) · no activity yet$/,
    bad: { session: "nope" },
    badText: /Input validation error[\s\S]*session/,
  },
  {
    tool: "post_agent_activity",
    good: { identifier: "ENG-4", kind: "prompt", body: "Start with the primary buttons." },
    goodText: /^Replied to @triage-bot on ENG-4 \(session [0-9a-f-]{36}, now pending\)\.$/,
    bad: { identifier: "ENG-4", kind: "thought", body: "Thinking" },
    badText: /forbidden: Only the session's agent may post its activities/,
  },
  {
    tool: "check_inbox",
    good: { unread: true },
    goodText: /\d+ unread$/,
    bad: { limit: 0 },
    badText: /Input validation error[\s\S]*limit/,
  },
  {
    tool: "list_projects",
    good: { team: ["ENG"], sort: "name" },
    goodText:
      /^Launch \[started\] on_track \d+% \(\d+\/\d+\) · lead Ada Lovelace · target \d{4}-\d\d-\d\d · ENG · initiative "Q3 Growth"\n/,
    bad: { initiative: "Nope" },
    badText: /not_found: No initiative "Nope"[\s\S]*Initiatives: "Q3 Growth"/,
  },
  {
    tool: "get_project",
    good: { project: "launch" },
    goodText: /^Launch \[started\][\s\S]*Open issues by priority:\n {2}ENG-1 /,
    bad: { project: "Nope" },
    badText: /not_found: No project "Nope"[\s\S]*Projects: "Launch"/,
  },
  {
    tool: "save_project",
    good: { name: "Beta", teams: ["ENG"], lead: "me", addMembers: ["me"] },
    goodText:
      /^Created Beta \[backlog\] on_track 0% \(0\/0\) · lead Ada Lovelace · ENG\nmembers: ada@example\.com$/,
    bad: { project: "Launch" },
    badText: /^Nothing to change/,
  },
  {
    tool: "list_initiatives",
    good: { status: ["active"] },
    goodText: /^Q3 Growth \[active\] \w+ \d+% .*1 projects\n/,
    bad: { sort: "size" },
    badText: /Input validation error[\s\S]*sort/,
  },
  {
    tool: "get_initiative",
    good: { initiative: "Q3 Growth" },
    goodText: /^Q3 Growth \[active\][\s\S]*Projects:\n {2}Launch \[started\]/,
    bad: { initiative: "Nope" },
    badText: /not_found: No initiative "Nope"[\s\S]*Initiatives: "Q3 Growth"/,
  },
  {
    tool: "save_initiative",
    good: { name: "Q4 Retention", status: "planned" },
    goodText: /^Created Q4 Retention \[planned\]/,
    bad: {},
    badText: /^To create an initiative give `name`/,
  },
  {
    tool: "create_cycle",
    good: { team: "ENG", name: "Sprint 1" },
    goodText: /^Started ENG cycle 1 "Sprint 1" .* → .*, it is the team's first cycle\.$/,
    bad: { team: "OPS" },
    badText: /conflict: Cycles are disabled for team OPS/,
  },
  {
    tool: "list_cycles",
    good: { team: "ENG", current: true },
    goodText: /^\* cycle 1 "Sprint 1"/,
    bad: { team: "NOPE" },
    badText: /not_found[\s\S]*Team keys you can use: ENG, OPS/,
  },
  {
    tool: "list_status_updates",
    good: { project: "Launch", candidates: true },
    goodText:
      /^No status updates on project Launch yet\.\n\nCompleted since .* \(1\):\n {2}ENG-8 Ship release notes/,
    bad: {},
    badText: /^Name exactly one subject/,
  },
  {
    tool: "post_status_update",
    good: { project: "Launch", title: "Week 1" },
    goodText: /^Posted "Week 1" on project Launch, health \w+, citing ENG-8\.\n\nCompleted since/,
    bad: { project: "Launch", team: "ENG", title: "Two subjects" },
    badText: /^Name exactly one subject/,
  },
  {
    tool: "search_documents",
    good: { query: "runbook" },
    goodText: /^Runbook · ENG · updated .* · ENG-1 · id [0-9a-f-]{36}\n\(1 document, no more\)$/,
    bad: { team: "NOPE" },
    badText: /not_found[\s\S]*Team keys you can use: ENG, OPS/,
  },
  {
    tool: "get_document",
    good: { document: "runbook" },
    goodText: /^Runbook · ENG[\s\S]*# Runbook\n\nRestart the worker\.$/,
    bad: { document: "Nothing like it" },
    badText: /^No document titled "Nothing like it"/,
  },
  {
    tool: "save_document",
    good: { document: "Runbook", content: "# Runbook\n\nRestart the worker, then the queue." },
    goodText: /^Saved Runbook · ENG/,
    bad: { title: "Orphan" },
    badText: /^To create a document give `title` and `team`/,
  },
  {
    tool: "attach_file",
    good: {
      identifier: "ENG-1",
      content: Buffer.from("steps to reproduce\n").toString("base64"),
      fileName: "repro.txt",
    },
    goodText:
      /^Attached repro\.txt \(text\/plain[^,]*, 19 bytes\) to ENG-1: http.*\nMarkdown: \[repro\.txt\]\(/,
    bad: { identifier: "ENG-1" },
    badText: /^Give either `path` \(a local file\) or `content` \(base64\)/,
  },
  {
    tool: "invite_member",
    good: { email: "sam@acme.test" },
    goodText: /^Invited sam@acme\.test as member\.\nLink, shown once: http\S+\/invite\/\S+\n/,
    bad: { email: "bob@example.com" },
    badText: /^bob@example\.com is already a member of this workspace/,
  },
  {
    tool: "manage_team_members",
    good: { team: "OPS", add: ["bob@example.com"] },
    goodText: /^Added to OPS: bob@example\.com\.\nOPS members: .*<bob@example\.com>/,
    bad: { team: "OPS", add: ["sam@acme.test"] },
    badText: /^Not done: sam@acme\.test: not a member of the workspace \(invited but not joined yet\?\)/,
  },
  {
    tool: "manage_labels",
    good: { action: "create", label: "perf", color: "#ff8800" },
    goodText: /^Created label "perf" #ff8800\.$/,
    bad: { action: "merge", label: "perf" },
    badText: /^merge needs `into`/,
  },
  {
    tool: "manage_webhooks",
    // The loopback's discard port, which the test workspace allows (test/workspace.ts): nothing listens.
    good: { action: "create", url: "http://127.0.0.1:9/agent-hook", events: ["issue.created"] },
    goodText:
      /^Registered http:\/\/127\.0\.0\.1:9\/agent-hook \(id .+\) for issue\.created of every team\. Signing secret \(shown once\): whsec_/,
    bad: { action: "redeliver", webhook: "http://127.0.0.1:9/agent-hook" },
    badText: /^redeliver needs `delivery`/,
  },
  {
    tool: "list_webhooks",
    good: {},
    goodText: /^http:\/\/127\.0\.0\.1:9\/agent-hook \[enabled\] issue\.created id /,
    bad: { webhook: "https://nowhere.example/hook" },
    badText: /^No webhook "https:\/\/nowhere\.example\/hook"\. Webhooks: http:\/\/127\.0\.0\.1:9\/agent-hook/,
  },
  {
    tool: "create_issues",
    good: {
      issues: [
        { team: "ENG", title: "Write the rollout plan", priority: "medium" },
        { team: "OPS", title: "Book the maintenance window" },
      ],
    },
    goodText:
      /^Created 2:\nENG-\d+ \[Backlog\] P3 @- Write the rollout plan\nOPS-\d+ \[Backlog\] .*Book the maintenance window$/,
    bad: { issues: [{ team: "NOPE", title: "Lost" }] },
    badText: /not_found: Issue 1 of 1: No team "NOPE"[\s\S]*Team keys you can use: ENG, OPS/,
  },
  {
    tool: "archive_issue",
    // The issue create_issue made above, archived before delete_issue deletes it.
    good: { identifier: "ENG-9" },
    goodText: /^Archived ENG-9 \(since \d{4}-\d\d-\d\d \d\d:\d\d\)\.$/,
    bad: { identifier: "ENG-999" },
    badText: /^not_found: No issue "ENG-999"/,
  },
  {
    tool: "delete_issue",
    // The issue create_issue made above.
    good: { identifier: "ENG-9" },
    goodText: /^Deleted ENG-9\.$/,
    bad: { identifier: "ENG-9" },
    badText: /^not_found: No issue "ENG-9"/,
  },
  {
    tool: "manage_workflow_states",
    good: { team: "OPS", action: "create", name: "QA", type: "started" },
    goodText:
      /^Added QA \(started, #[0-9a-f]{6}\) to OPS at position \d\.\nOPS states: Backlog \(backlog\), /,
    bad: { team: "OPS", action: "delete", state: "Done" },
    badText: /^last_state: "Done" is the last completed state of OPS/,
  },
];

/** Calls every tool of the table through `client`, good then bad, asserting what an agent would see. */
export async function callEveryTool(client: Client): Promise<void> {
  for (const call of TOOL_CALLS) {
    const good = await client.callTool({ name: call.tool, arguments: call.good });
    expect.soft(good.isError ?? false, `${call.tool}: ${textOf(good)}`).toBe(false);
    expect.soft(good.structuredContent, call.tool).toBeTypeOf("object");
    expect.soft(textOf(good), call.tool).toMatch(call.goodText);

    if (process.env.SHOW_TOOL_TEXT) console.log(`== ${call.tool}\n${textOf(good)}`);
    const bad = await client.callTool({ name: call.tool, arguments: call.bad });
    if (process.env.SHOW_TOOL_TEXT) console.log(`-- bad\n${textOf(bad)}`);
    expect.soft(bad.isError, `${call.tool} bad: ${textOf(bad)}`).toBe(true);
    expect.soft(textOf(bad), `${call.tool} bad`).toMatch(call.badText);
    expect.soft(textOf(bad), `${call.tool} bad`).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/);
  }
}
