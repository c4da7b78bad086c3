import { defineEntity, p } from "@mikro-orm/core";
import { memberRoleValues } from "@tracker/sdk/schema";
import { createdTimestamp, uuidPrimaryKey } from "../../entity-columns.js";
import { User } from "../users/user.entity.js";
import { Workspace } from "../workspaces/workspace.entity.js";

export const Invite = defineEntity({
  name: "Invite",
  tableName: "invites",
  indexes: [{ properties: ["workspace"] }],
  properties: {
    id: uuidPrimaryKey(),
    workspace: () => p.manyToOne(Workspace).deleteRule("cascade"),
    email: p.text(),
    role: p.enum([...memberRoleValues]),
    tokenHash: p.text().unique(),
    invitedBy: () => p.manyToOne(User).nullable().deleteRule("set null"),
    expiresAt: p.datetime(),
    acceptedAt: p.datetime().nullable(),
    createdAt: createdTimestamp(),
  },
});
