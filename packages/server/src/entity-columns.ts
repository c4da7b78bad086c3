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
