import type { operations } from "@tracker/sdk/schema";
import { type Action, type Actor, authorizeAttempt } from "./permissions.js";

/**
 * The action of every operation of the contract (openapi.yaml), by `operationId`: what the pipeline's
 * `authorize` step asks before the handler runs, what `PERMISSIONS.md` prints, and what the role × action
 * test (`permissions.test.ts`) calls. Typed over the contract's operations, so an operation added to
 * the contract fails to compile until it has its action here.
 */

/**
 * The operations the server answers. The contract's `webhooks` (`deliverChange`: what the server sends to a
 * registered endpoint, modules/webhooks) are typed among `operations` too, but nobody calls them here.
 */
type OperationId = Exclude<keyof operations, "deliverChange">;

/** What the operation's input holds, as the rules read it (after validation). */
interface Input {
  query: Record<string, unknown>;
  body: unknown;
}

export interface OperationRule {
  action: Action;
  /** Part of the operation's input that asks another action, e.g. label counts with `counts=1`. */
  variant?: { when: string; action: Action; applies: (input: Input) => boolean };
}

const bodyScope = (input: Input) => (input.body as { scope?: string } | undefined)?.scope;
/** Each variant's input, by the body's or the query's `scope`. */
const accountScope = (input: Input) => bodyScope(input) === "account";
const workspaceScope = (input: Input) => bodyScope(input) === "workspace";
const workspaceScopeQuery = (input: Input) => input.query.scope === "workspace";
/** An operation whose input, when `applies`, asks another action. */
const withVariant = (
  action: Action,
  when: string,
  variant: Action,
  applies: (input: Input) => boolean,
): OperationRule => ({ action, variant: { when, action: variant, applies } });

export const OPERATION_RULES: Record<OperationId, OperationRule> = {
  getHealth: { action: "server.health" },
  listWorkspaces: { action: "workspace.list" },
  createWorkspace: { action: "workspace.create" },
  setActiveWorkspace: { action: "workspace.activate" },
  updateWorkspace: { action: "workspace.update" },
  getCodehost: { action: "workspace.read" },
  connectCodehost: { action: "codehost.manage" },
  disconnectCodehost: { action: "codehost.manage" },
  receiveGithubDelivery: { action: "codehost.deliver" },
  listInvites: { action: "invite.list" },
  createInvite: { action: "invite.manage" },
  acceptInvite: { action: "invite.accept" },
  signIn: { action: "session.signIn" },
  signOut: { action: "session.end" },
  signOutEverywhere: { action: "session.end" },
  getSession: { action: "session.read" },
  listSessions: { action: "session.read" },
  deleteSession: { action: "session.end" },
  changePassword: { action: "account.password" },
  updateMe: { action: "account.update" },
  listOAuthGrants: { action: "oauthGrant.list" },
  revokeOAuthGrant: { action: "oauthGrant.revoke" },
  resetPassword: { action: "session.resetPassword" },
  createPasswordReset: { action: "member.passwordReset" },
  deleteInvite: { action: "invite.manage" },
  updateMember: { action: "member.update" },
  removeMember: { action: "member.remove" },
  listUsers: { action: "user.list" },
  listApiKeys: { action: "apiKey.list" },
  createApiKey: withVariant("apiKey.manage", "scope=account", "apiKey.createAccountKey", accountScope),
  deleteApiKey: { action: "apiKey.manage" },
  listTeams: { action: "team.read" },
  createTeam: { action: "team.create" },
  listAllTeams: { action: "team.read" },
  getTeam: { action: "team.read" },
  updateTeam: { action: "team.update" },
  deleteTeam: { action: "team.delete" },
  joinTeam: { action: "team.join" },
  listTeamMembers: { action: "team.read" },
  addTeamMember: { action: "team.manage" },
  removeTeamMember: { action: "team.removeMember" },
  listWorkflows: { action: "team.read" },
  upsertWorkflow: { action: "team.manage" },
  deleteWorkflow: { action: "team.manage" },
  createWorkflowState: { action: "team.manage" },
  updateWorkflowState: { action: "team.manage" },
  deleteWorkflowState: { action: "team.manage" },
  listIssues: { action: "issue.read" },
  countIssues: { action: "issue.read" },
  createIssue: { action: "issue.write" },
  createIssues: { action: "issue.write" },
  importIssues: { action: "issue.import" },
  moveIssues: { action: "issue.write" },
  getIssue: { action: "issue.read" },
  updateIssue: { action: "issue.write" },
  deleteIssue: { action: "issue.delete" },
  archiveIssue: { action: "issue.write" },
  unarchiveIssue: { action: "issue.write" },
  getIssuePageData: { action: "issue.read" },
  getIssueHistory: { action: "issue.read" },
  createIssueLink: { action: "issue.write" },
  listIssueRelations: { action: "issue.read" },
  createIssueRelation: { action: "issue.write" },
  deleteIssueRelation: { action: "issue.write" },
  listComments: { action: "issue.read" },
  createComment: { action: "issue.write" },
  updateComment: { action: "comment.update" },
  listCommentRevisions: { action: "issue.read" },
  deleteComment: { action: "comment.delete" },
  listAttachments: { action: "issue.read" },
  uploadAttachment: { action: "issue.write" },
  deleteAttachment: { action: "attachment.delete" },
  downloadAttachment: { action: "attachment.download" },
  listProjects: { action: "project.read" },
  createProject: { action: "project.write" },
  getProject: { action: "project.read" },
  updateProject: { action: "project.write" },
  moveProject: { action: "project.move" },
  listProjectMembers: { action: "project.read" },
  addProjectMember: { action: "project.manageMembers" },
  removeProjectMember: { action: "project.removeMember" },
  getProjectPageData: { action: "project.read" },
  listInitiatives: { action: "initiative.read" },
  createInitiative: { action: "initiative.write" },
  getInitiative: { action: "initiative.read" },
  updateInitiative: { action: "initiative.write" },
  getInitiativePageData: { action: "initiative.read" },
  moveInitiative: { action: "initiative.move" },
  listCycles: { action: "cycle.read" },
  createCycle: { action: "cycle.write" },
  updateCycle: { action: "cycle.write" },
  deleteCycle: { action: "cycle.write" },
  listLabels: withVariant("label.read", "counts=1", "label.counts", (input) => input.query.counts === "1"),
  createLabel: { action: "label.write" },
  updateLabel: { action: "label.write" },
  deleteLabel: { action: "label.write" },
  mergeLabel: { action: "label.write" },
  listDocuments: { action: "document.read" },
  createDocument: { action: "document.write" },
  getDocument: { action: "document.read" },
  updateDocument: { action: "document.write" },
  deleteDocument: { action: "document.delete" },
  listUpdates: { action: "update.read" },
  createUpdate: { action: "update.create" },
  getUpdateCandidates: { action: "update.read" },
  listViews: { action: "view.list" },
  createView: { action: "view.own" },
  updateView: { action: "view.own" },
  deleteView: { action: "view.own" },
  listViewDefaults: { action: "view.list" },
  putViewDefault: withVariant("view.own", "scope=workspace", "view.workspaceDefault", workspaceScope),
  deleteViewDefault: withVariant("view.own", "scope=workspace", "view.workspaceDefault", workspaceScopeQuery),
  getDigest: { action: "digest.read" },
  getSsoSettings: { action: "sso.read" },
  putSsoSettings: { action: "sso.manage" },
  deleteSsoSettings: { action: "sso.manage" },
  listWebhooks: { action: "webhook.read" },
  createWebhook: { action: "webhook.manage" },
  getWebhook: { action: "webhook.read" },
  updateWebhook: { action: "webhook.manage" },
  deleteWebhook: { action: "webhook.manage" },
  listWebhookDeliveries: { action: "webhook.read" },
  redeliverWebhook: { action: "webhook.manage" },
  listAgents: { action: "agent.read" },
  createAgent: { action: "agent.create" },
  listAgentSessions: { action: "agentSession.read" },
  getAgentSession: { action: "agentSession.read" },
  createAgentActivity: { action: "agentSession.report" },
  createAgentMessage: { action: "agentSession.message" },
  stopAgentSession: { action: "agentSession.stop" },
  listNotifications: { action: "notification.read" },
  markNotificationsRead: { action: "notification.update" },
  getNotificationSettings: { action: "notificationSettings.read" },
  putNotificationSettings: { action: "notificationSettings.update" },
  getIssueSubscription: { action: "issue.read" },
  subscribeIssue: { action: "issue.subscribe" },
  unsubscribeIssue: { action: "issue.subscribe" },
  streamEvents: { action: "events.read" },
  reseedDev: { action: "dev.reseed" },
};

/** The action an operation asks for this input: its variant's when that applies. */
export function actionOf(operationId: string, input: Input): Action {
  const rule = OPERATION_RULES[operationId as OperationId];
  if (!rule) throw new Error(`${operationId}: no rule in rules/operations.ts`);
  return rule.variant?.applies(input) ? rule.variant.action : rule.action;
}

/** The pipeline's question: may this caller attempt this operation with this input at all? */
export function authorizeOperation(actor: Actor, operationId: string, input: Input): void {
  authorizeAttempt(actor, actionOf(operationId, input));
}
