import { defineEntity, p } from "@mikro-orm/core";
import { createdTimestamp, uuidPrimaryKey } from "../../entity-columns.js";
import { Issue } from "../issues/issue.entity.js";
import { Team } from "../teams/team.entity.js";
import { User } from "../users/user.entity.js";
import { Workspace } from "../workspaces/workspace.entity.js";

export const DOCUMENT_SEARCH_VECTOR =
  "(setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', coalesce(content, '')), 'B'))";

export const Document = defineEntity({
  name: "Document",
  tableName: "documents",
  indexes: [
    { properties: ["workspace", "updatedAt"] },
    { properties: ["team"] },
    {
      name: "documents_search_index",
      expression: `create index "documents_search_index" on "documents" using gin (${DOCUMENT_SEARCH_VECTOR}) with (gin_pending_list_limit = 256)`,
    },
  ],
  properties: {
    id: uuidPrimaryKey(),
    workspace: () => p.manyToOne(Workspace).deleteRule("cascade"),
    team: () => p.manyToOne(Team).deleteRule("cascade"),
    title: p.text(),
    content: p.text().nullable(),
    creator: () => p.manyToOne(User).nullable().deleteRule("set null"),
    createdAt: createdTimestamp(),
    updatedAt: createdTimestamp(),
  },
});

export const DocumentIssue = defineEntity({
  name: "DocumentIssue",
  tableName: "document_issues",
  indexes: [{ properties: ["issue"] }],
  properties: {
    document: () => p.manyToOne(Document).primary().deleteRule("cascade"),
    issue: () => p.manyToOne(Issue).primary().deleteRule("cascade"),
  },
});
