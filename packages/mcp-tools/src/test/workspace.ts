import { createTracker, type Tracker } from "@tracker/sdk";
import { startTestServer, type TestServer } from "@tracker/server/testing";
import { afterAll, beforeAll, vi } from "vitest";

/** A workspace with the things agents work on, made through the SDK the way people would make them. */
export interface Workspace {
  server: TestServer;
  /** The Tracker server origin, e.g. http://127.0.0.1:41234 */
  url: string;
  /** Admin's account key. */
  token: string;
  admin: { email: string; name: string };
  /** A member, for assigning. */
  bob: { token: string; email: string };
  /** The admin's SDK client, for seeding and for checking what tools did. */
  sdk: Tracker;
  /** An SDK client for another key. */
  as(token: string): Tracker;
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/**
 * A real server on its own database with: teams ENG (cycles on) and OPS; Ada (admin) and Bob; labels
 * bug, defect and ui; issues ENG-1..ENG-8 (two overdue, two unassigned, one done); project Launch in
 * initiative "Q3 Growth"; a Runbook document; a saved view "My overdue"; an agent, triage-bot, delegated
 * ENG-4.
 */
export function useWorkspace(): Workspace {
  const ws = {} as Workspace;
  beforeAll(async () => {
    // Webhook tools register endpoints on the loopback, which only the operator's setting allows.
    vi.stubEnv("TRACKER_WEBHOOKS_ALLOW_PRIVATE", "1");
    const server = await startTestServer();
    const boot = await server.bootstrap({
      workspaceName: "Acme",
      email: "ada@example.com",
      name: "Ada Lovelace",
      team: { key: "ENG", name: "Engineering" },
    });
    const as = (token: string) =>
      createTracker({ baseUrl: server.url, apiKey: token, workspace: "", maxRetries: 0 });
    const sdk = as(boot.apiKey.token);
    const bob = await server.addMember(boot.apiKey.token, "member", "bob@example.com");
    await sdk.teams.update("ENG", { cyclesEnabled: true, cycleLengthWeeks: 1 });
    await sdk.teams.create({ key: "OPS", name: "Operations" });
    await sdk.teams.addMember("ENG", bob.userId);
    for (const name of ["bug", "defect", "ui"]) await sdk.labels.create({ name });
    await sdk.initiatives.create({ name: "Q3 Growth", status: "active", targetDate: day(60) });
    await sdk.projects.create({
      name: "Launch",
      teams: ["ENG"],
      status: "started",
      lead: "me",
      initiative: "Q3 Growth",
      targetDate: day(30),
    });
    const issues: Omit<Parameters<Tracker["issues"]["create"]>[0], "team">[] = [
      {
        title: "Login fails on Safari",
        priority: 1,
        assignee: "me",
        dueDate: day(-3),
        labels: ["bug"],
        project: "Launch",
      },
      { title: "Board is slow with 500 cards", priority: 0, dueDate: day(-1) },
      { title: "Export to CSV drops unicode", priority: 3, assignee: bob.email, labels: ["defect"] },
      { title: "Dark mode contrast on buttons", priority: 4, labels: ["ui"], project: "Launch" },
      { title: "Onboarding checklist", priority: 2, assignee: "me", state: "In Progress", project: "Launch" },
      { title: "Rate limit docs", priority: 3 },
      { title: "Search ignores accents", priority: 2, assignee: bob.email, labels: ["defect"] },
      { title: "Ship release notes", priority: 2, assignee: "me", state: "Done", project: "Launch" },
    ];
    for (const issue of issues) await sdk.issues.create({ team: "ENG", ...issue });
    await sdk.documents.create({
      title: "Runbook",
      team: "ENG",
      content: "# Runbook\n\nRestart the worker.",
      issues: ["ENG-1"],
    });
    await sdk.views.create({ name: "My overdue", filters: { special: ["overdue"] }, team: "ENG" });
    // An agent with a session on ENG-4, delegated by Ada (list_agent_sessions, post_agent_activity).
    await sdk.agents.create({ name: "triage-bot" });
    await sdk.issues.delegate("ENG-4", "triage-bot");
    Object.assign(ws, {
      server,
      url: server.url,
      token: boot.apiKey.token,
      admin: { email: boot.user.email, name: "Ada Lovelace" },
      bob: { token: bob.token, email: bob.email },
      sdk,
      as,
    });
  });
  afterAll(async () => {
    await ws.server?.close();
    vi.unstubAllEnvs();
  });
  return ws;
}
