import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, textOf, tokens } from "./test/connect.js";
import { useWorkspace } from "./test/workspace.js";
import { TOOLSET_NAMES } from "./toolsets.js";

// The tasks an agent is given, each the sequence of tool calls a model makes for it (reading each answer
// to choose the next call), checked afterwards through the SDK. Every answer's tokens (bytes / 4 of its
// text, and of its structuredContent) are counted and printed, so a change that bloats answers shows.
const ws = useWorkspace();
let agent: Client;

interface Cost {
  task: string;
  calls: number;
  text: number;
  structured: number;
}
const costs: Cost[] = [];
let current: Cost;

beforeAll(async () => {
  agent = await connectClient(ws.sdk, { toolsets: TOOLSET_NAMES });
});

afterAll(() => {
  const rows = costs.map(
    (c) =>
      `${c.task.padEnd(54)} ${String(c.calls).padStart(5)} ${String(c.text).padStart(12)} ${String(c.structured).padStart(18)}`,
  );
  const sum = (k: "calls" | "text" | "structured") => costs.reduce((n, c) => n + c[k], 0);
  console.log(
    [
      `${"agent task".padEnd(54)} calls  text tokens  structured tokens`,
      ...rows,
      `${"total".padEnd(54)} ${String(sum("calls")).padStart(5)} ${String(sum("text")).padStart(12)} ${String(sum("structured")).padStart(18)}`,
    ].join("\n"),
  );
});

function task(name: string, run: () => Promise<void>) {
  it(name, async () => {
    current = { task: name, calls: 0, text: 0, structured: 0 };
    costs.push(current);
    await run();
  });
}

/** One tool call as the model makes it: it must succeed; the answer's tokens are counted. */
async function use<T = Record<string, unknown>>(
  tool: string,
  args: Record<string, unknown>,
): Promise<{ text: string; data: T }> {
  const result = await agent.callTool({ name: tool, arguments: args });
  const text = textOf(result);
  current.calls++;
  current.text += tokens(text);
  current.structured += tokens(JSON.stringify(result.structuredContent ?? {}));
  expect(result.isError ?? false, `${tool}: ${text}`).toBe(false);
  return { text, data: result.structuredContent as T };
}

type Rows = { issues: { identifier: string; assignee: string | null; title: string }[] };
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

describe("agent tasks", () => {
  task("triage ENG's overdue work and assign it", async () => {
    const overdue = await use<Rows>("search_issues", { team: "ENG", special: ["overdue"], sort: "due" });
    const { data: members } = await use<{ members: { email: string; me: boolean }[] }>("list_members", {
      team: "ENG",
    });
    const other = members.members.find((m) => !m.me)!.email;
    const late = overdue.data.issues.map((i) => i.identifier);
    await use("update_issues", { identifiers: late, assignee: other, dueDate: inDays(7), priority: "high" });
    for (const identifier of late)
      await use("comment_issue", {
        identifier,
        body: `Reassigned to ${other} in triage; new due date ${inDays(7)}.`,
      });

    expect(late).toEqual(["ENG-1", "ENG-2"]);
    expect((await ws.sdk.issues.list({ team: "ENG", special: ["overdue"] })).items).toEqual([]);
    for (const identifier of late) {
      const issue = await ws.sdk.issues.get(identifier);
      expect(issue).toMatchObject({ assignee: { email: ws.bob.email }, dueDate: inDays(7), priority: 2 });
      expect(issue.comments.at(-1)?.body).toContain("Reassigned to bob@example.com");
    }
  });

  task("file a bug with labels that blocks another issue", async () => {
    await use("list_labels", {});
    await use("search_issues", { query: "onboarding" });
    const { data } = await use<{ issue: { identifier: string } }>("create_issue", {
      team: "ENG",
      title: "Onboarding checklist crashes on empty workspace",
      description: "Steps: create a workspace, open onboarding. Expected: checklist. Actual: blank page.",
      priority: "urgent",
      labels: ["bug", "ui"],
      blocks: ["ENG-5"],
      idempotencyKey: "task-2:file-bug",
    });
    const issue = await ws.sdk.issues.get(data.issue.identifier);
    expect(issue).toMatchObject({ labels: ["bug", "ui"], priority: 1 });
    expect(issue.relations.map((r) => `${r.type} ${r.issue.identifier}`)).toEqual(["blocks ENG-5"]);
    expect((await ws.sdk.issues.list({ special: ["blocked"] })).items.map((i) => i.identifier)).toContain(
      "ENG-5",
    );
  });

  task("roll ENG's cycle over once it has ended", async () => {
    await use("list_cycles", { team: "ENG" });
    // Sprint 1 ran the last two weeks and ended yesterday.
    await use("create_cycle", {
      team: "ENG",
      name: "Sprint 1",
      startsAt: `${inDays(-14)}T09:00:00Z`,
      endsAt: `${inDays(-1)}T09:00:00Z`,
    });
    await use("update_issues", { identifiers: ["ENG-3", "ENG-4", "ENG-7"], cycle: 1 });
    await use("update_issues", { identifiers: ["ENG-7"], state: "Done" });
    const { text } = await use("create_cycle", { team: "ENG", name: "Sprint 2" });

    expect(text).toMatch(/^Started ENG cycle 2 "Sprint 2" .*, 2 unfinished issues moved from cycle 1\.$/);
    const sprint2 = await ws.sdk.issues.list({ team: "ENG", cycle: 2 });
    expect(sprint2.items.map((i) => i.identifier).sort()).toEqual(["ENG-3", "ENG-4"]);
    expect((await ws.sdk.issues.get("ENG-7")).cycle?.number).toBe(1);

    // Planning Sprint 3 while Sprint 2 runs: a start at its end and no rollover leave Sprint 2 whole.
    const [running] = await ws.sdk.cycles.list("ENG");
    const { text: planned } = await use("create_cycle", {
      team: "ENG",
      name: "Sprint 3",
      startsAt: running!.endsAt,
      rollover: false,
    });
    expect(planned).toMatch(/^Created ENG cycle 3 "Sprint 3" .*, cycle 2 keeps its unfinished issues\.$/);
    expect((await ws.sdk.issues.list({ team: "ENG", cycle: 2 })).items).toHaveLength(2);
  });

  task("write Launch's status update from the candidates", async () => {
    const { data } = await use<{ candidates: { issues: { identifier: string; title: string }[] } }>(
      "list_status_updates",
      { project: "Launch", candidates: true },
    );
    await use("get_project", { project: "Launch" });
    const done = data.candidates.issues;
    await use("post_status_update", {
      project: "Launch",
      title: "Launch: release notes shipped",
      content: `Shipped: ${done.map((i) => `${i.identifier} ${i.title}`).join("; ")}. Next: Safari login (ENG-1).`,
      issues: done.map((i) => i.identifier),
      idempotencyKey: "task-4:update",
    });
    const [update] = await ws.sdk.updates.list({ project: "Launch" });
    expect(update).toMatchObject({
      title: "Launch: release notes shipped",
      issues: [{ identifier: "ENG-8" }],
    });
    expect((await ws.sdk.updates.candidates({ project: "Launch" })).issues).toEqual([]);
  });

  task("merge the defect label into bug", async () => {
    const { text } = await use("list_labels", { counts: true });
    expect(text).toMatch(/^defect \(2 issues, 1 open\)$/m); // ENG-7 was finished in the cycle task
    await use("manage_labels", { action: "merge", label: "defect", into: "bug" });
    expect((await ws.sdk.labels.list()).map((l) => l.name)).not.toContain("defect");
    expect((await ws.sdk.issues.get("ENG-3")).labels).toEqual(["bug"]);
    expect((await ws.sdk.issues.get("ENG-7")).labels).toEqual(["bug"]);
  });

  task("find the runbook and add an escalation section", async () => {
    const { data } = await use<{ documents: { id: string }[] }>("search_documents", {
      query: "restart worker",
    });
    const id = data.documents[0]!.id;
    const { data: read } = await use<{ document: { content: string } }>("get_document", { document: id });
    await use("save_document", {
      document: id,
      content: `${read.document.content}\n\n## Escalation\n\nPage the on-call engineer after two failed restarts.`,
      issues: ["ENG-1", "ENG-2"],
    });
    const doc = await ws.sdk.documents.get(id);
    expect(doc.content).toMatch(/^# Runbook\n\nRestart the worker\.\n\n## Escalation\n/);
    expect(doc.issues.map((i) => i.identifier)).toEqual(["ENG-1", "ENG-2"]);
  });

  task("plan a new project under an initiative", async () => {
    await use("list_initiatives", { status: ["active"] });
    await use("save_project", {
      name: "Mobile app",
      teams: ["ENG"],
      lead: "me",
      initiative: "Q3 Growth",
      startDate: inDays(1),
      targetDate: inDays(90),
      description: "Ship the iOS and Android apps.",
      idempotencyKey: "task-7:project",
    });
    await use("update_issues", { identifiers: ["ENG-6"], project: "Mobile app" });
    const { text } = await use("get_initiative", { initiative: "Q3 Growth" });
    expect(text).toMatch(/Projects:\n {2}Launch .*\n {2}Mobile app \[backlog\] 0% \(0\/1\)/);
    const projects = await ws.sdk.projects.list({ initiative: "Q3 Growth", sort: "name" });
    expect(projects.items.map((p) => [p.name, p.lead?.name, p.progress.total])).toEqual([
      ["Launch", "Ada Lovelace", 4],
      ["Mobile app", "Ada Lovelace", 1],
    ]);
  });

  task("close a duplicate report", async () => {
    await ws.as(ws.bob.token).issues.create({ team: "ENG", title: "Safari: cannot sign in" });
    const { data } = await use<Rows>("search_issues", {
      query: "safari",
      stateType: ["backlog", "unstarted", "started"],
    });
    const [original, duplicate] = [...data.issues].sort((a, b) =>
      a.identifier.localeCompare(b.identifier, "en", { numeric: true }),
    );
    await use("get_issue", { identifier: duplicate!.identifier });
    await use("relate_issues", {
      identifier: duplicate!.identifier,
      type: "duplicate",
      issue: original!.identifier,
    });
    await use("update_issues", { identifiers: [duplicate!.identifier], state: "Canceled" });
    await use("comment_issue", {
      identifier: duplicate!.identifier,
      body: `Duplicate of ${original!.identifier}.`,
    });

    const closed = await ws.sdk.issues.get(duplicate!.identifier);
    expect(original!.identifier).toBe("ENG-1");
    expect(closed.state.name).toBe("Canceled");
    expect(closed.relations.map((r) => `${r.type} ${r.issue.identifier}`)).toEqual(["duplicate ENG-1"]);
  });

  task("hand the UI work to the OPS team", async () => {
    const { data } = await use<Rows>("search_issues", {
      team: "ENG",
      labels: ["ui"],
      stateType: ["backlog", "unstarted"],
    });
    const { text } = await use("move_issues", {
      identifiers: data.issues.map((i) => i.identifier),
      team: "OPS",
    });
    expect(text).toMatch(/^ENG-4 → OPS-1 \(cycle dropped, project cleared\)/);
    const moved = await ws.sdk.issues.get("ENG-4");
    expect(moved).toMatchObject({ identifier: "OPS-1", team: { key: "OPS" }, cycle: null, project: null });
  });

  task("invite sam@acme.test and add them to Engineering", async () => {
    const { data } = await use<{ invite: { url: string } }>("invite_member", { email: "sam@acme.test" });
    // Sam opens the link the agent passed on.
    const token = new URL(data.invite.url).pathname.split("/").pop()!;
    await ws.as("").invites.accept({ token, name: "Sam Rivera" });
    await use("list_teams", {});
    const { text } = await use("manage_team_members", { team: "ENG", add: ["sam@acme.test"] });
    expect(text).toMatch(/^Added to ENG: sam@acme\.test\.\nENG members: .*Sam Rivera <sam@acme\.test>/);
    expect((await ws.sdk.teams.members("ENG")).map((m) => m.email)).toContain("sam@acme.test");
    expect((await ws.sdk.users.list()).find((u) => u.email === "sam@acme.test")?.role).toBe("member");
  });

  task("make a saved view Urgent bugs", async () => {
    await use("list_labels", {});
    await use("save_view", {
      name: "Urgent bugs",
      filters: { label: ["bug"], priority: ["urgent"], stateType: ["backlog", "unstarted", "started"] },
    });
    const { text } = await use("search_issues", { view: "Urgent bugs" });
    // Only the urgent bug filed in an earlier task (since moved to OPS): ENG-1 was made high in triage.
    const lines = text.split("\n").filter((l) => /^[A-Z]+-\d+ /.test(l));
    expect(lines.map((l) => l.split(" ").slice(0, 3).join(" "))).toEqual(["OPS-2 [Backlog] P1"]);
    const view = (await ws.sdk.views.list()).find((v) => v.name === "Urgent bugs");
    expect(view).toMatchObject({
      kind: "issues",
      filters: { label: ["bug"], priority: ["urgent"], stateType: ["backlog", "unstarted", "started"] },
    });
  });

  task("catch up on what others did on my issues and answer", async () => {
    await ws.as(ws.bob.token).comments.create("ENG-5", { body: "Can you review the checklist copy today?" });
    const { text, data } = await use<{ events: { issue: string; type: string }[] }>("get_digest", {
      since: inDays(-1),
    });
    expect(text).toMatch(/ENG-5 bob commented: Can you review the checklist copy today\?/);
    const issue = data.events.find((e) => e.type === "comment_added")!.issue;
    await use("get_issue", { identifier: issue });
    await use("comment_issue", { identifier: issue, body: "Reviewed: two wording fixes pushed." });
    await use("update_issues", { identifiers: [issue], state: "In Review" });
    const after = await ws.sdk.issues.get("ENG-5");
    expect(after.state.name).toBe("In Review");
    expect(after.comments.map((c) => c.author.email)).toEqual([ws.bob.email, ws.admin.email]);
  });
});
