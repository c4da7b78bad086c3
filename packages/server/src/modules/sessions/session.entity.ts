import { defineEntity, type InferEntity, p } from "@mikro-orm/core";
import { createdTimestamp, uuidPrimaryKey } from "../../entity-columns.js";
import { User } from "../users/user.entity.js";
import { Workspace } from "../workspaces/workspace.entity.js";

/**
 * A person signed in from a browser (openapi.yaml, "Sessions"). The cookie holds a random token; only its
 * SHA-256 is stored, so a copy of the database signs nobody in. Deleted on sign-out; all of a person's on
 * "sign out everywhere" and when their password is reset.
 */
export const Session = defineEntity({
  name: "Session",
  tableName: "sessions",
  indexes: [{ properties: ["user"] }],
  properties: {
    id: uuidPrimaryKey(),
    user: () => p.manyToOne(User).deleteRule("cascade"),
    /** SHA-256 of the cookie's token. */
    tokenHash: p.text().unique(),
    /** The workspace chosen with PUT /workspaces/active, as an account key's. */
    activeWorkspace: () => p.manyToOne(Workspace).nullable().deleteRule("set null"),
    /**
     * Set for a session made by single sign-on (`modules/sso`): the one workspace whose provider vouched for
     * the person, and the only one the session reaches.
     */
    ssoWorkspace: () => p.manyToOne(Workspace).nullable().deleteRule("cascade"),
    /** The browser's `User-Agent` as it signed in, cut to 300 characters (openapi.yaml, `listSessions`). */
    userAgent: p.text().nullable(),
    createdAt: createdTimestamp(),
    /** When authentication last saw the session: written at most once a minute. */
    lastSeenAt: p.datetime().onCreate(() => new Date()),
    expiresAt: p.datetime(),
  },
});
export type ISession = InferEntity<typeof Session>;
