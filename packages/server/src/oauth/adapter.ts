import type { MikroORM } from "@mikro-orm/postgresql";
import type { Adapter, AdapterPayload } from "oidc-provider";
import { hashToken } from "../http/auth.js";
import * as store from "./store.query.js";

/**
 * `oidc-provider`'s storage, on PostgreSQL (`oauth/store.query.ts`), so several server instances share
 * clients, grants, codes and tokens. Ids are stored as their SHA-256; an access or refresh token's id is
 * the bearer secret itself, so for those `jti` (the same) is left out of the stored payload and put back
 * when the token is presented: a copy of the table lets no one use a token.
 */
const BEARER_KINDS = new Set(["AccessToken", "RefreshToken", "ClientCredentials"]);

export function pgAdapter(orm: MikroORM) {
  return class PgAdapter implements Adapter {
    constructor(readonly kind: string) {}

    em() {
      return orm.em.fork();
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const { jti, ...rest } = payload;
      const stored = BEARER_KINDS.has(this.kind) ? rest : { ...rest, ...(jti ? { jti } : {}) };
      await store.upsertRow(this.em(), {
        kind: this.kind,
        idHash: hashToken(id),
        payload: stored,
        grantId: payload.grantId ?? null,
        userCode: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expiresIn: expiresIn ? Math.ceil(expiresIn) : null,
      });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      const found = await store.findById(this.em(), this.kind, hashToken(id));
      if (!found) return undefined;
      return BEARER_KINDS.has(this.kind) ? { ...withConsumed(found), jti: id } : withConsumed(found);
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      const found = await store.findByUserCode(this.em(), this.kind, userCode);
      return found ? withConsumed(found) : undefined;
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const found = await store.findByUid(this.em(), this.kind, uid);
      return found ? withConsumed(found) : undefined;
    }

    async consume(id: string): Promise<void> {
      await store.consumeRow(this.em(), this.kind, hashToken(id));
    }

    async destroy(id: string): Promise<void> {
      await store.destroyRow(this.em(), this.kind, hashToken(id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await store.revokeGrant(this.em(), grantId);
    }
  };
}

function withConsumed(found: { payload: store.Payload; consumed: number | null }): AdapterPayload {
  return {
    ...found.payload,
    ...(found.consumed ? { consumed: Number(found.consumed) } : {}),
  } as AdapterPayload;
}
