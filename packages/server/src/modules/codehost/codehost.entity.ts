import { defineEntity, p } from "@mikro-orm/core";
import { createdTimestamp, uuidPrimaryKey } from "../../entity-columns.js";
import { Issue } from "../issues/issue.entity.js";
import { Workspace } from "../workspaces/workspace.entity.js";

/**
 * A workspace's connection to a code host (the contract's `connectCodehost`): one per workspace. The webhook
 * secret is kept encrypted (`secret-box.ts`): checking a delivery's HMAC needs the secret itself.
 */
export const CodehostConnection = defineEntity({
  name: "CodehostConnection",
  tableName: "codehost_connections",
  properties: {
    workspace: () => p.manyToOne(Workspace).primary().deleteRule("cascade"),
    provider: p.enum(["github"]),
    secretSealed: p.text(),
    createdAt: createdTimestamp(),
  },
});

/**
 * Deliveries already acted on, written in the transaction of what the delivery did, so a redelivery does
 * nothing twice: by `X-GitHub-Delivery`, and by the SHA-256 of the body, since GitHub's signature covers
 * the body alone and a captured delivery could be sent again under another delivery id. Pruned after a
 * week (GitHub redelivers for days at most).
 */
export const CodehostDelivery = defineEntity({
  name: "CodehostDelivery",
  tableName: "codehost_deliveries",
  indexes: [{ properties: ["receivedAt"] }],
  uniques: [{ properties: ["workspace", "bodySha256"] }],
  properties: {
    workspace: () => p.manyToOne(Workspace).primary().deleteRule("cascade"),
    deliveryId: p.text().primary(),
    bodySha256: p.text(),
    event: p.text(),
    receivedAt: p.datetime(),
  },
});

/** A pull request that mentions an issue (the contract's `PullRequestLink`), one row per issue and PR. */
export const IssuePullRequest = defineEntity({
  name: "IssuePullRequest",
  tableName: "issue_pull_requests",
  uniques: [{ properties: ["issue", "provider", "repository", "number"] }],
  properties: {
    id: uuidPrimaryKey(),
    issue: () => p.manyToOne(Issue).deleteRule("cascade"),
    provider: p.enum(["github"]),
    repository: p.text(),
    number: p.integer(),
    title: p.text(),
    url: p.text(),
    state: p.enum(["open", "draft", "merged", "closed"]),
    branch: p.text().nullable(),
    /** The issue closes when the PR merges; false when only linked (`Part of`, `Ref`, ...). */
    closes: p.boolean(),
    createdAt: createdTimestamp(),
    updatedAt: p.datetime(),
  },
});
