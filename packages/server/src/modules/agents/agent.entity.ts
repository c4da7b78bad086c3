import { defineEntity, type InferEntity, p } from "@mikro-orm/core";
import { createdTimestamp, uuidPrimaryKey } from "../../entity-columns.js";
import { Comment, Issue } from "../issues/issue.entity.js";
import { User } from "../users/user.entity.js";
import { Workspace } from "../workspaces/workspace.entity.js";

/** Stored states; `unresponsive` and `stale` are read from the times (agent.query.ts, `SESSION_STATE_SQL`). */
export const STORED_SESSION_STATES = [
  "pending",
  "active",
  "awaiting_input",
  "error",
  "complete",
  "stopped",
] as const;

/**
 * One agent working on one issue (openapi.yaml, `AgentSession`): opened by delegating the issue to the
 * agent or mentioning it in a comment.
 */
export const AgentSession = defineEntity({
  name: "AgentSession",
  tableName: "agent_sessions",
  indexes: [
    { properties: ["issue", "createdAt"] },
    { properties: ["agent", "createdAt"] },
    { properties: ["creator", "createdAt"] },
  ],
  properties: {
    id: uuidPrimaryKey(),
    workspace: () => p.manyToOne(Workspace).deleteRule("cascade"),
    issue: () => p.manyToOne(Issue).deleteRule("cascade"),
    agent: () => p.manyToOne(User).deleteRule("cascade"),
    creator: () => p.manyToOne(User).nullable().deleteRule("set null"),
    trigger: p.enum(["delegated", "mentioned"]),
    /** The comment that mentioned the agent, for `mentioned`. */
    comment: () => p.manyToOne(Comment).nullable().deleteRule("set null"),
    state: p.enum([...STORED_SESSION_STATES]),
    /** When the state last changed: `pending` turns `unresponsive` 10 s after it. */
    stateAt: p.datetime(),
    lastActivityAt: p.datetime().nullable(),
    createdAt: createdTimestamp(),
    updatedAt: p.datetime(),
  },
});
export type IAgentSession = InferEntity<typeof AgentSession>;

/** What an agent reports in a session, and a person's messages and stop signal (`AgentActivity`). */
export const AgentActivity = defineEntity({
  name: "AgentActivity",
  tableName: "agent_activities",
  indexes: [{ properties: ["session", "createdAt"] }, { properties: ["issue", "createdAt"] }],
  properties: {
    id: uuidPrimaryKey(),
    workspace: () => p.manyToOne(Workspace).deleteRule("cascade"),
    session: () => p.manyToOne(AgentSession).deleteRule("cascade"),
    /** The session's issue, so the issue's history reads its activities by one index. */
    issue: () => p.manyToOne(Issue).deleteRule("cascade"),
    author: () => p.manyToOne(User).nullable().deleteRule("set null"),
    kind: p.enum(["thought", "action", "elicitation", "response", "error", "prompt", "stop"]),
    body: p.text(),
    action: p.json<{ name: string; parameter: string; result?: string | null }>().nullable(),
    createdAt: createdTimestamp(),
  },
});
