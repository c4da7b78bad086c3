import type { EntityManager } from "@mikro-orm/postgresql";
import type { Caller } from "../../http/auth.js";
import { NotFound } from "../../http/problem.js";
import { revokeGrant } from "../../oauth/store.query.js";
import { deleteGrant, listGrants } from "./grant.query.js";

/**
 * The apps a person authorised (openapi.yaml, `listOAuthGrants`, `revokeOAuthGrant`): only their own grants,
 * for the workspaces the caller reaches (a workspace key's, a token's or a single sign-on session's one).
 */
export function myGrants(em: EntityManager, caller: Caller) {
  return listGrants(
    em,
    caller.userId,
    caller.workspaces.map((w) => w.id),
  );
}

/**
 * Revokes one: the grant and, in the same transaction, every code and token issued under it
 * (`revokeGrant`, which also closes the tokens' event streams on commit). Deleting access tokens bumps
 * `auth_epoch` (migration `…_oauth_store`), so no instance's cached caller outlives the revocation.
 */
export async function revokeMyGrant(em: EntityManager, caller: Caller, id: string): Promise<void> {
  await em.transactional(async (tem) => {
    const grantId = await deleteGrant(
      tem,
      caller.userId,
      caller.workspaces.map((w) => w.id),
      id,
    );
    if (!grantId) throw new NotFound(`No app you authorised with grant ${id}.`);
    await revokeGrant(tem, grantId);
  });
}
