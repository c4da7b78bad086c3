import { createHash, randomBytes } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { type Change, recordChanges } from "../../events/record-change.query.js";
import type { RequestScope, WorkspaceScope } from "../../http/handler.js";
import { Invalid, Unauthenticated } from "../../http/problem.js";
import { isFinished } from "../../rules/state-types.js";
import { type ActivityInput, recordActivities } from "../activity/activity.query.js";
import { isUuid } from "../shared/resolve.query.js";
import * as db from "./codehost.query.js";
import { verifyGithubSignature } from "./github-signature.js";
import {
  type IssueReference,
  magicWordReferences,
  mergeReferences,
  pullRequestReferences,
} from "./issue-references.js";
import { secretBox } from "./secret-box.js";

type Codehost = components["schemas"]["Codehost"];
type Trigger = components["schemas"]["WorkflowTrigger"];
type PullRequestState = components["schemas"]["PullRequestState"];
export type DeliveryResult = components["schemas"]["CodehostDeliveryResult"];

/** The events and actions the GitHub integration acts on (the contract's `Codehost.events`). */
export const GITHUB_EVENTS = [
  "ping",
  "pull_request.opened",
  "pull_request.reopened",
  "pull_request.edited",
  "pull_request.synchronize",
  "pull_request.converted_to_draft",
  "pull_request.ready_for_review",
  "pull_request.review_requested",
  "pull_request.closed",
  "push",
];

/** The delivery path of a workspace, relative to the server root (the contract's `Codehost.path`). */
export const githubDeliveryPath = (workspaceId: string) => `/api/v1/codehost/github/${workspaceId}`;

function describe(workspaceId: string, connected: boolean): Codehost {
  return connected
    ? { configured: true, provider: "github", path: githubDeliveryPath(workspaceId), events: GITHUB_EVENTS }
    : { configured: false, provider: null, path: null, events: [] };
}

export async function getCodehost(scope: WorkspaceScope): Promise<Codehost> {
  const connection = await db.connectionOf(scope.em, scope.workspace.id);
  return describe(scope.workspace.id, connection !== undefined);
}

/**
 * Connects the workspace (or replaces its secret); the answer carries the secret, shown this once. Admins
 * only, like disconnecting (`codehost.manage` in rules/permissions.ts, asked before this runs).
 */
export async function connectCodehost(
  scope: WorkspaceScope,
  input: { provider: "github"; secret?: string },
): Promise<{ codehost: Codehost; secret: string }> {
  const secret = input.secret ?? randomBytes(32).toString("hex");
  const sealed = secretBox(scope.config.dataDir).seal(secret);
  await db.saveConnection(scope.em, scope.workspace.id, sealed);
  return { codehost: describe(scope.workspace.id, true), secret };
}

export async function disconnectCodehost(scope: WorkspaceScope): Promise<void> {
  await db.deleteConnection(scope.em, scope.workspace.id);
}

interface Json {
  [key: string]: unknown;
}
const obj = (v: unknown): Json | undefined =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : undefined;
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/**
 * One GitHub delivery (the contract's `receiveGithubDelivery`): the signature is checked before anything
 * is read, then, in one transaction, the delivery id is claimed (a redelivery stops there) and the event
 * is acted on, so the claim and its effects commit or roll back together.
 */
export async function receiveGithubDelivery(
  scope: RequestScope,
  workspaceId: string,
  body: unknown,
): Promise<DeliveryResult> {
  const ctx = scope.koa;
  const connection = isUuid(workspaceId) ? await db.connectionOf(scope.em, workspaceId) : undefined;
  // The bytes as sent, which koa-body keeps beside the parsed body (`includeUnparsed`, http/body.ts).
  const raw = (ctx.request as { rawBody?: unknown }).rawBody;
  const secret = connection && secretBox(scope.config.dataDir).open(connection.secretSealed);
  if (!connection || secret === undefined) {
    if (connection) scope.logger.error("codehost: the secret cannot be read with this server's secrets key");
    throw new Unauthenticated("This workspace is not connected to a code host.");
  }
  if (!ctx.is("application/json"))
    throw new Invalid("Set the webhook's content type to application/json: the delivery was not JSON.");
  if (
    typeof raw !== "string" ||
    !verifyGithubSignature(secret, raw, ctx.get("x-hub-signature-256") || undefined)
  )
    throw new Unauthenticated("The delivery's X-Hub-Signature-256 does not match the workspace's secret.");
  const event = ctx.get("x-github-event");
  const deliveryId = ctx.get("x-github-delivery");
  if (!event || !deliveryId || deliveryId.length > 200)
    throw new Invalid("A delivery needs the X-GitHub-Event and X-GitHub-Delivery headers.", [
      { path: "/header/X-GitHub-Delivery", message: "required, at most 200 characters" },
    ]);
  const payload = obj(body)!;
  return scope.em.transactional(async (em) => {
    const bodySha256 = createHash("sha256").update(raw).digest("hex");
    if (!(await db.claimDelivery(em, workspaceId, deliveryId, bodySha256, event)))
      return { ok: true as const, duplicate: true, handled: false, issues: [] };
    const acted = await actOn(em, workspaceId, event, payload);
    return { ok: true as const, duplicate: false, ...acted };
  });
}

interface Acted {
  handled: boolean;
  issues: string[];
}

async function actOn(em: EntityManager, workspaceId: string, event: string, payload: Json): Promise<Acted> {
  if (event === "ping") return { handled: true, issues: [] };
  if (event === "pull_request") return pullRequestEvent(em, workspaceId, payload);
  if (event === "push") return pushEvent(em, workspaceId, payload);
  return { handled: false, issues: [] };
}

/** What a pull request action does: the triggers it fires (in preference order) and the PR's state after it. */
interface PullRequestStep {
  /** `pull_request` activity's `action`. */
  action: string;
  triggers: Trigger[];
  state: PullRequestState;
  /**
   * Whether its rule may take an issue out of a finished (completed or canceled) state: a merge, a close and
   * a reopen may; opening, drafting and review requests leave done and canceled issues be.
   */
  reopens?: boolean;
}

function stepOf(action: string, pr: Json): PullRequestStep | undefined {
  const draft = pr.draft === true;
  const openState: PullRequestState = draft ? "draft" : "open";
  switch (action) {
    case "opened":
    case "reopened": {
      const reopens = action === "reopened";
      return draft
        ? { action: "draft", triggers: ["pr_draft"], state: "draft", reopens }
        : { action: "opened", triggers: ["pr_opened"], state: "open", reopens };
    }
    case "converted_to_draft":
      return { action: "draft", triggers: ["pr_draft"], state: "draft" };
    case "ready_for_review":
      // With no rule for it, a draft becoming ready is the PR opening for review.
      return { action: "ready_for_review", triggers: ["pr_ready_for_review", "pr_opened"], state: "open" };
    case "review_requested":
      return { action: "review_requested", triggers: ["pr_review_requested"], state: openState };
    case "closed":
      return pr.merged === true
        ? { action: "merged", triggers: ["pr_merged"], state: "merged", reopens: true }
        : { action: "closed", triggers: ["pr_closed"], state: "closed", reopens: true };
    case "edited":
    case "synchronize":
      return { action: "linked", triggers: [], state: openState };
    default:
      return undefined;
  }
}

function malformed(what: string): never {
  throw new Invalid(`The delivery's payload is not a GitHub ${what} payload.`);
}

async function pullRequestEvent(em: EntityManager, workspaceId: string, payload: Json): Promise<Acted> {
  const action = str(payload.action);
  const pr = obj(payload.pull_request);
  const repository = str(obj(payload.repository)?.full_name);
  if (!action || !pr || !repository) malformed("pull_request");
  const step = stepOf(action, pr);
  if (!step) return { handled: false, issues: [] };
  const number = pr.number;
  const url = str(pr.html_url);
  if (typeof number !== "number" || !Number.isInteger(number) || number < 1 || !url)
    malformed("pull_request");
  const link = {
    repository,
    number,
    title: (str(pr.title) ?? "").slice(0, 1000),
    url,
    state: step.state,
    branch: str(obj(pr.head)?.ref) ?? null,
  };
  const refs = pullRequestReferences({ branch: link.branch, title: link.title, body: str(pr.body) });
  const issues = await db.lockReferencedIssues(
    em,
    workspaceId,
    refs.map((r) => r.identifier),
  );
  const kindOf = new Map(refs.map((r) => [r.identifier, r.kind]));
  const changes: Change[] = [];
  const activities: ActivityInput[] = [];
  for (const issue of uniqueIssues(issues, kindOf)) {
    const closes = issue.kind === "closes";
    const linked = await db.upsertPullRequest(em, issue.id, { ...link, closes });
    const teamScope = { identifier: issue.identifier, teamKey: issue.teamKey, teamId: issue.teamId };
    if (linked.changed || step.triggers.length)
      changes.push({
        entity: "pull_request",
        action: linked.created ? "created" : "updated",
        id: linked.id,
        ...teamScope,
      });
    if (step.triggers.length || linked.created) {
      activities.push({
        workspaceId,
        issueId: issue.id,
        actorId: null,
        type: "pull_request",
        payload: {
          action: step.action,
          pullRequest: { repository, number, title: link.title, url, state: step.state },
        },
      });
    }
    if (!closes || step.triggers.length === 0) continue;
    if (isFinished(issue.stateType) && !step.reopens) continue;
    let target = await db.ruleTarget(em, issue, step.triggers);
    if (!target && step.triggers[0] === "pr_merged") target = await db.firstCompletedState(em, issue.teamId);
    if (target) await moveIssue(em, workspaceId, issue, target, changes, activities);
  }
  await recordActivities(em, activities);
  await recordChanges(em, workspaceId, changes);
  return { handled: true, issues: uniqueIssues(issues, kindOf).map((i) => i.identifier) };
}

/**
 * One entry per issue (two references may name one issue: its old and its current identifier), closing
 * when any of its references closes.
 */
function uniqueIssues(issues: db.ReferencedIssue[], kindOf: Map<string, IssueReference["kind"]>) {
  const byId = new Map<string, db.ReferencedIssue & { kind: IssueReference["kind"] }>();
  for (const issue of issues) {
    const kind = kindOf.get(issue.ref) ?? "related";
    const prior = byId.get(issue.id);
    if (!prior || (prior.kind === "related" && kind === "closes")) byId.set(issue.id, { ...issue, kind });
  }
  return [...byId.values()];
}

/** Moves an issue as its workflow rule says, recorded as automation (`actor: null`). */
async function moveIssue(
  em: EntityManager,
  workspaceId: string,
  issue: db.ReferencedIssue,
  target: db.TargetState,
  changes: Change[],
  activities: ActivityInput[],
): Promise<void> {
  if (target.id === issue.stateId) return;
  await db.setIssueState(em, issue, target);
  activities.push({
    workspaceId,
    issueId: issue.id,
    actorId: null,
    type: "state_changed",
    payload: {
      from: { id: issue.stateId, name: issue.stateName, type: issue.stateType },
      to: { id: target.id, name: target.name, type: target.type },
    },
  });
  changes.push({
    entity: "issue",
    action: "updated",
    id: issue.id,
    identifier: issue.identifier,
    teamKey: issue.teamKey,
    teamId: issue.teamId,
  });
  issue.stateId = target.id;
  issue.stateName = target.name;
  issue.stateType = target.type;
}

/**
 * A push to the repository's default branch: commit messages with a closing magic word close their issues
 * as a merged pull request would (the team's `pr_merged` rule, else its first completed state).
 */
async function pushEvent(em: EntityManager, workspaceId: string, payload: Json): Promise<Acted> {
  const ref = str(payload.ref);
  const repo = obj(payload.repository);
  if (!ref || !repo || !Array.isArray(payload.commits)) malformed("push");
  const defaultBranch = str(repo.default_branch) ?? str(repo.master_branch);
  if (!defaultBranch || ref !== `refs/heads/${defaultBranch}`) return { handled: true, issues: [] };
  const refs = mergeReferences(
    (payload.commits as unknown[]).flatMap((c) => magicWordReferences(str(obj(c)?.message))),
  ).filter((r) => r.kind === "closes");
  const issues = await db.lockReferencedIssues(
    em,
    workspaceId,
    refs.map((r) => r.identifier),
  );
  const changes: Change[] = [];
  const activities: ActivityInput[] = [];
  const done = new Set<string>();
  for (const issue of issues) {
    if (done.has(issue.id)) continue;
    done.add(issue.id);
    const target =
      (await db.ruleTarget(em, issue, ["pr_merged"])) ?? (await db.firstCompletedState(em, issue.teamId));
    if (target) await moveIssue(em, workspaceId, issue, target, changes, activities);
  }
  await recordActivities(em, activities);
  await recordChanges(em, workspaceId, changes);
  return {
    handled: true,
    issues: issues.filter((i, n) => issues.findIndex((j) => j.id === i.id) === n).map((i) => i.identifier),
  };
}
