import type { HandlerEntry } from "./http/handler.js";
import { apiKeyHandlers } from "./modules/api-keys/api-key.routes.js";
import { devHandlers } from "./modules/dev/dev.routes.js";
import { inviteHandlers } from "./modules/invites/invite.routes.js";
import { memberHandlers } from "./modules/members/member.routes.js";
import { workspaceHandlers } from "./modules/workspaces/workspace.routes.js";

/** Every implemented contract operation. Operations missing here answer 501 not_implemented. */
export const allHandlers: HandlerEntry[] = [
  ...workspaceHandlers,
  ...memberHandlers,
  ...apiKeyHandlers,
  ...inviteHandlers,
  ...devHandlers,
];
