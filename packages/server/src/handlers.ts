import { eventHandlers } from "./events/events.routes.js";
import type { HandlerEntry } from "./http/handler.js";
import { digestHandlers } from "./modules/activity/digest.routes.js";
import { agentHandlers } from "./modules/agents/agent.routes.js";
import { apiKeyHandlers } from "./modules/api-keys/api-key.routes.js";
import { attachmentHandlers } from "./modules/attachments/attachment.routes.js";
import { codehostHandlers } from "./modules/codehost/codehost.routes.js";
import { commentHandlers } from "./modules/comments/comment.routes.js";
import { cycleHandlers } from "./modules/cycles/cycle.routes.js";
import { devHandlers } from "./modules/dev/dev.routes.js";
import { documentHandlers } from "./modules/documents/document.routes.js";
import { initiativeHandlers } from "./modules/initiatives/initiative.routes.js";
import { inviteHandlers } from "./modules/invites/invite.routes.js";
import { issueHandlers } from "./modules/issues/issue.routes.js";
import { labelHandlers } from "./modules/labels/label.routes.js";
import { memberHandlers } from "./modules/members/member.routes.js";
import { notificationHandlers } from "./modules/notifications/notification.routes.js";
import { oauthGrantHandlers } from "./modules/oauth-grants/grant.routes.js";
import { projectHandlers } from "./modules/projects/project.routes.js";
import { sessionHandlers } from "./modules/sessions/session.routes.js";
import { ssoHandlers } from "./modules/sso/sso.routes.js";
import { teamHandlers } from "./modules/teams/team.routes.js";
import { workflowStateHandlers } from "./modules/teams/workflow-state.routes.js";
import { updateHandlers } from "./modules/updates/update.routes.js";
import { viewHandlers } from "./modules/views/view.routes.js";
import { webhookHandlers } from "./modules/webhooks/webhook.routes.js";
import { workspaceHandlers } from "./modules/workspaces/workspace.routes.js";

/** Every implemented contract operation. Operations missing here answer 501 not_implemented. */
export const allHandlers: HandlerEntry[] = [
  ...workspaceHandlers,
  ...memberHandlers,
  ...apiKeyHandlers,
  ...inviteHandlers,
  ...sessionHandlers,
  ...oauthGrantHandlers,
  ...ssoHandlers,
  ...devHandlers,
  ...teamHandlers,
  ...workflowStateHandlers,
  ...issueHandlers,
  ...commentHandlers,
  ...attachmentHandlers,
  ...digestHandlers,
  ...notificationHandlers,
  ...labelHandlers,
  ...documentHandlers,
  ...updateHandlers,
  ...viewHandlers,
  ...projectHandlers,
  ...initiativeHandlers,
  ...cycleHandlers,
  ...eventHandlers,
  ...codehostHandlers,
  ...webhookHandlers,
  ...agentHandlers,
];
