import { randomUUID } from "node:crypto";
import { p } from "@mikro-orm/core";

/** Column shapes most entities share, defined once so a table's definition shows only what is its own. */

/** A uuid primary key, made by the server when the entity is created. */
export const uuidPrimaryKey = () =>
  p
    .uuid()
    .primary()
    .onCreate(() => randomUUID());

/** A timestamp the server sets when the entity is created; an edit that should move it sets it itself. */
export const createdTimestamp = () => p.datetime().onCreate(() => new Date());

/** A unique index on (workspace, lower(name)): names unique in a workspace regardless of case. */
export function workspaceUniqueLowerName(table: string) {
  const name = `${table}_workspace_lower_name_unique`;
  return { name, expression: `create unique index "${name}" on "${table}" ("workspace_id", lower("name"))` };
}
