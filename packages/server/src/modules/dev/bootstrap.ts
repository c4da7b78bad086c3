import type { EntityManager } from "@mikro-orm/postgresql";
import { Invalid } from "../../http/problem.js";
import { insertApiKey } from "../api-keys/api-key.service.js";
import { insertTeam } from "../teams/team.service.js";
import { findOrCreateUser } from "../users/user.service.js";
import { insertWorkspace } from "../workspaces/workspace.service.js";

export interface BootstrapInput {
  workspaceName: string;
  workspaceSlug?: string;
  email: string;
  name: string;
  /** A first team to create, e.g. { key: "ENG", name: "Engineering" }. */
  team?: { key: string; name: string };
}

/**
 * Creates a workspace, its admin (or reuses the user with that email) and an account key. Used by
 * `npm run setup`, by the first development start, and by POST /dev/reseed.
 */
export async function bootstrapWorkspace(em: EntityManager, input: BootstrapInput) {
  return em.transactional(async (tem) => {
    const user = await findOrCreateUser(tem, input.email, input.name);
    if (!user) throw new Invalid("The admin needs a name.");
    const workspace = await insertWorkspace(tem, user.id, input.workspaceName, input.workspaceSlug);
    const team = input.team ? await insertTeam(tem, workspace.id, input.team, user.id) : undefined;
    const apiKey = await insertApiKey(tem, user.id, "Setup key", "account", workspace.id);
    return { workspace, user, apiKey, team };
  });
}
