import type { EntitySchema } from "@mikro-orm/core";
import { ChangeEvent } from "./events/change-event.entity.js";
import { WorkspaceVersion } from "./events/workspace-version.entity.js";
import { AuthEpoch } from "./http/auth-epoch.entity.js";
import { IdempotentRequest } from "./http/idempotent-request.entity.js";
import { RateLimitBucket } from "./http/rate-limit-bucket.entity.js";
import { AgentActivity, AgentSession } from "./modules/agents/agent.entity.js";
import { ApiKey } from "./modules/api-keys/api-key.entity.js";
import { Attachment } from "./modules/attachments/attachment.entity.js";
import {
  CodehostConnection,
  CodehostDelivery,
  IssuePullRequest,
} from "./modules/codehost/codehost.entity.js";
import { Cycle, CycleCounter } from "./modules/cycles/cycle.entity.js";
import { Document, DocumentIssue } from "./modules/documents/document.entity.js";
import { Initiative } from "./modules/initiatives/initiative.entity.js";
import { Invite } from "./modules/invites/invite.entity.js";
import {
  ActivityEvent,
  Comment,
  CommentRevision,
  Issue,
  IssueLabel,
  IssueLabelPosting,
  IssueLink,
  IssueRedirect,
  IssueRelation,
  IssueSearchRecent,
  IssueSearchRecentSince,
} from "./modules/issues/issue.entity.js";
import { Label } from "./modules/labels/label.entity.js";
import {
  IssueSubscription,
  Notification,
  NotificationMail,
  NotificationSetting,
} from "./modules/notifications/notification.entity.js";
import {
  Project,
  ProjectIssueCounts,
  ProjectMember,
  ProjectTeam,
} from "./modules/projects/project.entity.js";
import { PasswordReset } from "./modules/sessions/password-reset.entity.js";
import { Session } from "./modules/sessions/session.entity.js";
import { SignInFailure } from "./modules/sessions/sign-in-failure.entity.js";
import { SsoLogin, SsoSettings } from "./modules/sso/sso.entity.js";
import {
  Team,
  TeamMember,
  TeamStateCount,
  WorkflowRule,
  WorkflowState,
} from "./modules/teams/team.entity.js";
import { StatusUpdate, StatusUpdateIssue } from "./modules/updates/status-update.entity.js";
import { User } from "./modules/users/user.entity.js";
import { SavedView, ViewDefault } from "./modules/views/view.entity.js";
import { WebhookDelivery, WebhookEndpoint } from "./modules/webhooks/webhook.entity.js";
import { Membership, Workspace } from "./modules/workspaces/workspace.entity.js";
import { OAuthStoreRow } from "./oauth/oauth-store.entity.js";

/** Every entity the ORM knows. Listed by hand: ESM builds have no folder discovery to rely on. */
export const entities: EntitySchema[] = [
  User,
  Workspace,
  Membership,
  ApiKey,
  Invite,
  Team,
  WorkflowState,
  TeamMember,
  TeamStateCount,
  WorkflowRule,
  Label,
  Initiative,
  Project,
  ProjectTeam,
  ProjectMember,
  ProjectIssueCounts,
  Cycle,
  CycleCounter,
  Issue,
  IssueLabel,
  IssueRelation,
  IssueLink,
  IssueRedirect,
  IssueSearchRecent,
  IssueSearchRecentSince,
  IssueLabelPosting,
  Comment,
  CommentRevision,
  Attachment,
  ActivityEvent,
  IssueSubscription,
  Notification,
  NotificationSetting,
  NotificationMail,
  Document,
  DocumentIssue,
  StatusUpdate,
  StatusUpdateIssue,
  SavedView,
  ViewDefault,
  ChangeEvent,
  WorkspaceVersion,
  IdempotentRequest,
  AuthEpoch,
  RateLimitBucket,
  CodehostConnection,
  CodehostDelivery,
  IssuePullRequest,
  WebhookEndpoint,
  WebhookDelivery,
  OAuthStoreRow,
  Session,
  SsoSettings,
  SsoLogin,
  SignInFailure,
  PasswordReset,
  AgentSession,
  AgentActivity,
];
