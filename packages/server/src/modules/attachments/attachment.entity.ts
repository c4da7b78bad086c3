import { defineEntity, p } from "@mikro-orm/core";
import { createdTimestamp, uuidPrimaryKey } from "../../entity-columns.js";
import { Issue } from "../issues/issue.entity.js";
import { User } from "../users/user.entity.js";

/**
 * A file uploaded to an issue (the contract's `IssueMedia`). The bytes live in the attachment store
 * (`attachment-store.ts`: the data folder, or S3) under `storageKey`; the row says what they are. Rows go
 * with their issue (cascade), and the store's objects without a row are removed by the orphan sweep
 * (`attachment-sweep.ts`), so a deleted issue's files follow it without a second write here.
 */
export const Attachment = defineEntity({
  name: "Attachment",
  tableName: "attachments",
  indexes: [{ properties: ["issue", "createdAt"] }],
  properties: {
    id: uuidPrimaryKey(),
    issue: () => p.manyToOne(Issue).deleteRule("cascade"),
    uploader: () => p.manyToOne(User).nullable().deleteRule("set null"),
    /** The name the uploader gave, as sent (only for display and `Content-Disposition`). */
    filename: p.text(),
    /** Taken from the bytes (`sniff.ts`), never from the client's word. */
    contentType: p.text(),
    size: p.bigint("number"),
    width: p.integer().nullable(),
    height: p.integer().nullable(),
    /** The object's key in the store: unique, never reused. */
    storageKey: p.text().unique(),
    createdAt: createdTimestamp(),
  },
});
