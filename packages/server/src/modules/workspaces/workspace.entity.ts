import { defineEntity, type InferEntity, p } from "@mikro-orm/core";
import { type components, memberRoleValues } from "@tracker/sdk/schema";
import { createdTimestamp, uuidPrimaryKey } from "../../entity-columns.js";
import { User } from "../users/user.entity.js";

export type MemberRole = components["schemas"]["MemberRole"];

export const Workspace = defineEntity({
  name: "Workspace",
  tableName: "workspaces",
  properties: {
    id: uuidPrimaryKey(),
    name: p.text(),
    slug: p.text().unique(),
    createdAt: createdTimestamp(),
    /**
     * Bumped by triggers whenever a name an issue list shows changes in this workspace: a team's key or
     * name, a state's name or type, a member (or their name or email), a project's name, a cycle's number,
     * a label's name. Servers cache those names per workspace and check this in each list statement
     * (`shared/workspace-names.ts`; migration `…_workspace_names_version`).
     */
    namesVersion: p.bigint().default(0),
  },
});
export type IWorkspace = InferEntity<typeof Workspace>;

export const Membership = defineEntity({
  name: "Membership",
  tableName: "memberships",
  uniques: [{ properties: ["workspace", "user"] }],
  indexes: [{ properties: ["user"] }],
  properties: {
    id: uuidPrimaryKey(),
    workspace: () => p.manyToOne(Workspace).deleteRule("cascade"),
    user: () => p.manyToOne(User).deleteRule("cascade"),
    role: p.enum([...memberRoleValues]),
    createdAt: createdTimestamp(),
  },
});
