import type { EntityManager } from "@mikro-orm/postgresql";
import type { WorkspaceScope } from "../../http/handler.js";
import { createComment } from "../comments/comment.service.js";
import type { IssueCreateInput } from "../issues/issue-shape.js";
import { createIssue } from "../issues/write/create.service.js";
import { createRelation } from "../issues/write/relation.query.js";
import { bootstrapWorkspace } from "./bootstrap.js";

export const DEMO_TEAM = { key: "ENG", name: "Engineering" };

/** A handful of realistic issues: a few states and labels, one assigned, one blocked by another. */
const DEMO_ISSUES: Omit<IssueCreateInput, "team">[] = [
  {
    title: "Set up CI for the monorepo",
    description: "Run typecheck, lint and the test suite on every pull request.",
    state: "Done",
    priority: 2,
    estimate: 3,
    labels: ["Infrastructure"],
  },
  {
    title: "Login page crashes on Safari 17",
    description: "Reproducible on macOS 14 with a cleared cache: the form throws before it renders.",
    state: "In Progress",
    priority: 1,
    estimate: 2,
    assignee: "me",
    labels: ["Bug", "Frontend"],
  },
  {
    title: "Add rate limiting to the public API",
    state: "Todo",
    priority: 2,
    estimate: 5,
    labels: ["Backend"],
  },
  {
    title: "Design the onboarding checklist",
    description: "Three to five steps a new workspace sees until it has its first team and issue.",
    state: "Backlog",
    priority: 3,
    labels: ["Design"],
  },
  {
    title: "Ship the onboarding checklist",
    state: "Todo",
    priority: 3,
    labels: ["Frontend"],
  },
  {
    title: "Document the issue endpoints",
    state: "In Review",
    priority: 4,
    labels: ["Documentation"],
  },
];

/**
 * The demo workspace a development server starts with: one team with the default workflow and a few
 * issues made through the same service functions the API uses, all in one transaction.
 */
export async function seedDemoWorkspace(em: EntityManager, admin: { email: string; name: string }) {
  return em.transactional(async (tem) => {
    const result = await bootstrapWorkspace(tem, {
      workspaceName: "Demo",
      email: admin.email,
      name: admin.name,
      team: DEMO_TEAM,
    });
    // The services need only the data part of a request scope: who acts, where, and the transaction.
    const scope = {
      em: tem,
      requestId: "demo-seed",
      caller: {
        userId: result.user.id,
        name: result.user.name,
        email: result.user.email,
        via: "key",
        keyId: result.apiKey.id,
        keyScope: "account",
        access: "admin",
        expiresAt: null,
        keyWorkspaceId: null,
        activeWorkspaceId: result.workspace.id,
      },
      workspace: { ...result.workspace, role: "admin" },
    } as unknown as WorkspaceScope;
    const issues = [];
    for (const issue of DEMO_ISSUES) issues.push(await createIssue(scope, { team: DEMO_TEAM.key, ...issue }));
    const [, crash, , design, ship] = issues;
    await createRelation(scope, design!.identifier, ship!.identifier, "blocks");
    await createComment(scope, crash!.identifier, "Safari's console points at the date picker polyfill.");
    return { ...result, teamKey: DEMO_TEAM.key };
  });
}
