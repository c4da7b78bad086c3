export type { ProblemCode, TrackerFieldError, TrackerWorkspaceChoice } from "./errors.js";
export { TrackerError, TrackerNetworkError, TrackerTimeoutError } from "./errors.js";
export {
  LIST_FILTERS,
  type ListFilterName,
  type ListFilters,
  type ListKind,
  type ListOperation,
  readListFilters,
  resolveListDate,
  writeListFilters,
} from "./filters.js";
export { BODY_RULES, LIST_OPERATIONS, QUERY_RULES, SCHEMA_RULES } from "./generated/rules.js";
export type { components, operations, paths } from "./generated/schema.js";
export type { CallOptions, Page, RawClient } from "./http.js";
export type { BodyOf, OperationId, QueryOf, ResponseOf, Schemas } from "./operation-types.js";
export type { AccountApi } from "./resources/account.js";
export type { AgentSessionsApi, AgentsApi } from "./resources/agents.js";
export type { ApiKeysApi } from "./resources/api-keys.js";
export type { CommentsApi } from "./resources/comments.js";
export type { CyclesApi } from "./resources/cycles.js";
export type { DocumentsApi } from "./resources/documents.js";
export {
  type EventStreamOptions,
  type EventsApi,
  STREAM_EVENTS,
  type TrackerEvent,
} from "./resources/events.js";
export type { InboxApi } from "./resources/inbox.js";
export type { InitiativesApi } from "./resources/initiatives.js";
export type { InvitesApi } from "./resources/invites.js";
export type {
  AttachmentData,
  AttachmentDownload,
  AttachOptions,
  ImportOptions,
  ImportResult,
  IssuesApi,
} from "./resources/issues.js";
export type { LabelsApi } from "./resources/labels.js";
export type { MembersApi } from "./resources/members.js";
export type { ProjectsApi } from "./resources/projects.js";
export type { TeamsApi, UpdatedTeam } from "./resources/teams.js";
export type { UpdatesApi } from "./resources/updates.js";
export type { UsersApi } from "./resources/users.js";
export type { ViewDefaultsApi } from "./resources/view-defaults.js";
export type { ViewsApi } from "./resources/views.js";
export type { WebhooksApi } from "./resources/webhooks.js";
export type { WorkspacesApi } from "./resources/workspaces.js";
export {
  type RateLimitInfo,
  type RequestErrorEvent,
  type RequestEvent,
  type RequestHooks,
  type ResponseEvent,
  type ResponseInfo,
  responseOf,
} from "./response.js";
export { parseEventStream, type RawServerSentEvent } from "./sse.js";
export { createTracker, type Tracker, type TrackerOptions } from "./tracker.js";
export type { UploadProgress } from "./upload-progress.js";
export * from "./values.js";
export {
  verifyWebhook,
  type WebhookEvent,
  type WebhookEventData,
  type WebhookHeaders,
  WebhookSignatureError,
} from "./webhook-verify.js";
