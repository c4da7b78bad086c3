import { randomUUID } from "node:crypto";
import type { components } from "@tracker/sdk/schema";
import { inTransaction } from "../../db/transaction.js";
import { recordChanges } from "../../events/record-change.query.js";
import type { WorkspaceScope } from "../../http/handler.js";
import { Conflict, fieldPath, guardUnique, Invalid, NotFound } from "../../http/problem.js";
import { authorize } from "../../rules/permissions.js";
import { insertApiKey } from "../api-keys/api-key.service.js";
import { resolveIssue } from "../shared/resolve.query.js";
import { User } from "../users/user.entity.js";
import { Membership } from "../workspaces/workspace.entity.js";
import {
  type ActivityKind,
  type AgentActivityOut,
  type AgentOut,
  type AgentSessionOut,
  type IssueOfSession,
  insertActivity,
  insertSession,
  isAgent,
  listSessions,
  loadActivities,
  loadAgent,
  loadSession,
  lockAwaitingSessions,
  lockSession,
  mentionedAgents,
  openSessionOf,
} from "./agent.query.js";

/**
 * Agents as teammates (openapi.yaml, "Agents"): app users of a workspace that people delegate issues to
 * and mention, the sessions that opens, and what the agents report in them.
 */

type AgentCreate = components["schemas"]["AgentCreate"];
type ActivityCreate = components["schemas"]["AgentActivityCreate"];

/**
 * `POST /agents`: a user of kind `agent` (its address is no one's mailbox: `agent-<id>@agents.invalid`),
 * a member of this workspace, and its workspace key at `access`. The name is unique among the
 * workspace's agents (409 `conflict`, decided by the unique index).
 */
export async function createAgent(
  scope: WorkspaceScope,
  body: AgentCreate,
): Promise<AgentOut & { token: string }> {
  const name = body.name.trim();
  return inTransaction(scope, async (tx) => {
    const id = randomUUID();
    const user = tx.em.create(User, {
      id,
      email: `agent-${id}@agents.invalid`,
      name,
      kind: "agent",
      avatarUrl: body.avatarUrl ?? null,
      agentWorkspace: tx.workspace.id,
    });
    await guardUnique(() => tx.em.flush(), {
      users_agent_workspace_lower_name_unique: () =>
        new Conflict("conflict", `The workspace already has an agent named "${name}".`),
    });
    tx.em.create(Membership, { workspace: tx.workspace.id, user: user.id, role: "member" });
    const key = await insertApiKey(tx.em, user.id, `${name} (agent)`, "workspace", tx.workspace.id, {
      access: body.access ?? "write",
    });
    await recordChanges(tx.em, tx.workspace.id, [{ entity: "member", action: "created", id: user.id }]);
    return { ...(await loadAgent(tx.em, user.id)), token: key.token };
  });
}

/** Opens a session of `agent` on the issue and tells the agent (`insertSession`). */
export function openSession(
  tx: WorkspaceScope,
  issue: IssueOfSession,
  agent: { id: string; name: string },
  trigger: "delegated" | "mentioned",
  commentId: string | null = null,
): Promise<string> {
  return insertSession(tx, issue, agent, trigger, commentId);
}

/**
 * What a new comment by the caller does to agents, in the comment's transaction: each agent it mentions
 * (`@<name>`) gets the comment as a `prompt` in its unfinished session on the issue, or a new session;
 * a comment by a person also answers every session on the issue waiting for input (`awaiting_input`).
 * Agents' own comments open nothing.
 */
export async function onComment(
  tx: WorkspaceScope,
  issue: IssueOfSession,
  commentId: string,
  body: string,
): Promise<void> {
  if (await isAgent(tx.em, tx.caller.userId)) return;
  const prompted = new Set<string>();
  for (const agent of await mentionedAgents(tx, issue.teamId, body)) {
    const open = await openSessionOf(tx, issue.id, agent.id);
    if (open) prompted.add(open);
    else await openSession(tx, issue, agent, "mentioned", commentId);
  }
  for (const id of await lockAwaitingSessions(tx, issue.id)) prompted.add(id);
  for (const id of [...prompted].sort()) {
    const session = await lockSession(tx, id);
    if (session) await insertActivity(tx, session, { kind: "prompt", body });
  }
}

export async function listAgentSessions(
  scope: WorkspaceScope,
  opts: { issue?: string | undefined; limit?: number | undefined },
): Promise<AgentSessionOut[]> {
  const issue = opts.issue === undefined ? undefined : await resolveIssue(scope, opts.issue);
  return listSessions(scope, { issueId: issue?.id, limit: opts.limit ?? 50 });
}

const noSession = (id: string) => new NotFound(`No agent session "${id}" in this workspace.`);

export async function getAgentSession(
  scope: WorkspaceScope,
  id: string,
): Promise<{ session: AgentSessionOut; activities: AgentActivityOut[] }> {
  const session = await loadSession(scope, id);
  if (!session) throw noSession(id);
  return { session, activities: await loadActivities(scope.em, session.id) };
}

/** Records an activity in a session and answers it with the session as it is now. */
async function record(
  scope: WorkspaceScope,
  id: string,
  check: (session: { agentId: string; state: string }) => void,
  activity: { kind: ActivityKind; body: string; action?: ActivityCreate["action"] },
): Promise<{ activity: AgentActivityOut; session: AgentSessionOut }> {
  const activityId = await inTransaction(scope, async (tx) => {
    const session = await lockSession(tx, id);
    if (!session) throw noSession(id);
    check(session);
    if (session.state === "stopped")
      throw new Conflict("conflict", "The session was stopped; nothing more can be posted to it.");
    return insertActivity(tx, session, activity);
  });
  const session = (await loadSession(scope, id))!;
  const [out] = await loadActivities(scope.em, id, activityId);
  return { activity: out!, session };
}

/**
 * `POST /agent-sessions/{id}/activities`: by the session's agent only (403 `forbidden`); `action` goes with
 * the kind `action` and no other (400).
 */
export function postActivity(scope: WorkspaceScope, id: string, body: ActivityCreate) {
  if ((body.kind === "action") !== (body.action !== undefined))
    throw new Invalid(
      body.kind === "action"
        ? "An action activity needs its `action`."
        : "Only an action activity has an `action`.",
      [
        {
          path: fieldPath("body", "action"),
          message: body.kind === "action" ? "is required with kind action" : "is only for kind action",
        },
      ],
    );
  return record(scope, id, (s) => authorize(scope, "agentSession.report", { agentId: s.agentId }), body);
}

/** `POST /agent-sessions/{id}/messages`: a `prompt` from someone who sees the issue. */
export function postMessage(scope: WorkspaceScope, id: string, body: string) {
  return record(scope, id, () => {}, { kind: "prompt", body });
}

/** `POST /agent-sessions/{id}/stop`: a `stop` activity, once; a stopped session is answered as it is. */
export async function stopSession(scope: WorkspaceScope, id: string): Promise<AgentSessionOut> {
  await inTransaction(scope, async (tx) => {
    const session = await lockSession(tx, id);
    if (!session) throw noSession(id);
    if (session.state !== "stopped") await insertActivity(tx, session, { kind: "stop", body: "" });
  });
  return (await loadSession(scope, id))!;
}
