import type { EntityManager } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import { sql } from "../../db/sql.js";
import { q } from "../../db/sql-fragment.js";
import { iso } from "../../db/sql-time.js";

type GrantOut = components["schemas"]["OAuthGrant"];
type Access = components["schemas"]["ApiKeyAccess"];

/**
 * The OAuth grants a person gave on the consent page (`oauth/consent.ts`), as `oidc-provider` keeps them in
 * `oauth_store` (`oauth/adapter.ts`): kind `Grant`, the grant id as `payload.jti`, the account as
 * `<userId>:<workspaceId>` (`oauth/provider.ts`, `accountOf`), the scopes per resource. A grant is named
 * outside by a UUID made from its id (as the rate limit names its tokens: `http/auth.query.ts`), never by the
 * id itself. The app's own registration (kind `Client`) is found by the SHA-256 of its id, as the adapter
 * stores it.
 */

/** The grant rows of `userId` for `workspaceIds`, still in force. */
const grantsOf = (userId: string, workspaceIds: string[]) =>
  q`g.kind = 'Grant' and split_part(g.payload->>'accountId', ':', 1) = ${userId}
    and split_part(g.payload->>'accountId', ':', 2) = any(${workspaceIds}::text[])
    and (g.expires_at is null or g.expires_at > now())`;

const LEVELS: Access[] = ["read", "write", "admin"];

/** `GET /oauth-grants`: newest first. */
export async function listGrants(
  em: EntityManager,
  userId: string,
  workspaceIds: string[],
): Promise<GrantOut[]> {
  const rows = await sql<{
    id: string;
    client_id: string;
    client_name: string | null;
    client_uri: string | null;
    workspace_id: string;
    workspace_name: string;
    workspace_slug: string;
    scopes: string | null;
    created_at: Date;
  }>(
    em,
    q`select md5(g.payload->>'jti')::uuid::text as id, g.payload->>'clientId' as client_id,
             c.payload->>'client_name' as client_name, c.payload->>'client_uri' as client_uri,
             w.id as workspace_id, w.name as workspace_name, w.slug as workspace_slug,
             concat_ws(' ', g.payload->'openid'->>'scope',
                       (select string_agg(r.value, ' ') from jsonb_each_text(coalesce(g.payload->'resources', '{}'::jsonb)) r)) as scopes,
             to_timestamp((g.payload->>'iat')::float8) as created_at
        from oauth_store g
        join workspaces w on w.id::text = split_part(g.payload->>'accountId', ':', 2)
        left join oauth_store c on c.kind = 'Client'
              and c.id_hash = encode(sha256(convert_to(g.payload->>'clientId', 'UTF8')), 'hex')
       where ${grantsOf(userId, workspaceIds)}
       order by created_at desc, id`,
  );
  return rows.map((r) => {
    const scopes = new Set((r.scopes ?? "").split(" "));
    return {
      id: r.id,
      client: { id: r.client_id, name: r.client_name, uri: r.client_uri },
      workspace: { id: r.workspace_id, name: r.workspace_name, slug: r.workspace_slug },
      access: [...LEVELS].reverse().find((l) => scopes.has(l)) ?? "read",
      createdAt: iso(r.created_at)!,
    };
  });
}

/**
 * Deletes the grant named by `id` if it is one of `userId`'s for `workspaceIds`; answers its grant id (what
 * its codes and tokens carry), or undefined when there is no such grant.
 */
export async function deleteGrant(
  em: EntityManager,
  userId: string,
  workspaceIds: string[],
  id: string,
): Promise<string | undefined> {
  const hex = id.toLowerCase().replaceAll("-", "");
  if (!/^[0-9a-f]{32}$/.test(hex)) return undefined;
  const rows = await sql<{ grant_id: string }>(
    em,
    q`delete from oauth_store g where ${grantsOf(userId, workspaceIds)} and md5(g.payload->>'jti') = ${hex}
      returning g.payload->>'jti' as grant_id`,
  );
  return rows[0]?.grant_id;
}
