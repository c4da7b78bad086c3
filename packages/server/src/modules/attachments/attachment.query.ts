import type { EntityManager } from "@mikro-orm/postgresql";
import type { components } from "@tracker/sdk/schema";
import type { Config } from "../../config.js";
import { sql, sqlOne } from "../../db/sql.js";
import { q, raw } from "../../db/sql-fragment.js";
import { isoSql } from "../../db/sql-time.js";
import { NotFound } from "../../http/problem.js";
import { isUuid } from "../shared/resolve.query.js";
import { signedUrl } from "./signed-url.js";

export type MediaOut = components["schemas"]["IssueMedia"];

/** An attachment as its statements read it (the JSON built by {@link ATTACHMENT_JSON}). */
export interface AttachmentRow {
  id: string;
  filename: string;
  contentType: string;
  size: number;
  width: number | null;
  height: number | null;
  uploaderId: string | null;
  createdAt: string;
}

const ATTACHMENT_JSON = `json_build_object(
    'id', a.id, 'filename', a.filename, 'contentType', a.content_type, 'size', a.size,
    'width', a.width, 'height', a.height, 'uploaderId', a.uploader_id, 'createdAt', ${isoSql("a.created_at")})`;
const ATTACHMENT_ORDER = "a.created_at, a.id";

/**
 * A JSON array of the attachments of the issue whose id is the SQL expression `issueId`, oldest first:
 * read in the issue's own statement (`getIssue`, page data), then made `IssueMedia` by {@link toMedia}.
 */
export function attachmentsJsonSql(issueId: string): string {
  return `coalesce((select json_agg(${ATTACHMENT_JSON} order by ${ATTACHMENT_ORDER})
                      from attachments a where a.issue_id = ${issueId}), '[]'::json)`;
}

/** The contract's `IssueMedia` of a row: its signed download URL and what is known of the file. */
export function toMedia(config: Config, row: AttachmentRow): MediaOut {
  return {
    id: row.id,
    url: signedUrl(config, row.id),
    title: row.filename,
    metadata: {
      filename: row.filename,
      contentType: row.contentType,
      size: Number(row.size),
      width: row.width,
      height: row.height,
      uploaderId: row.uploaderId,
      createdAt: row.createdAt,
    },
  };
}

export async function loadAttachments(em: EntityManager, issueId: string): Promise<AttachmentRow[]> {
  const rows = await sql<{ a: AttachmentRow }>(
    em,
    q`select ${raw(ATTACHMENT_JSON)} as a from attachments a where a.issue_id = ${issueId} order by ${raw(ATTACHMENT_ORDER)}`,
  );
  return rows.map((r) => r.a);
}

export async function loadAttachment(em: EntityManager, id: string): Promise<AttachmentRow> {
  const row = await sqlOne<{ a: AttachmentRow }>(
    em,
    q`select ${raw(ATTACHMENT_JSON)} as a from attachments a where a.id = ${id}`,
  );
  if (!row) throw new NotFound("No such attachment.");
  return row.a;
}

/** The attachment of an issue, its row locked for a delete; 404 for another issue's or none. */
export async function lockAttachmentOfIssue(
  em: EntityManager,
  issueId: string,
  id: string,
): Promise<{ id: string; uploaderId: string | null; storageKey: string }> {
  const row = isUuid(id)
    ? await sqlOne<{ id: string; uploader_id: string | null; storage_key: string }>(
        em,
        q`select id, uploader_id, storage_key from attachments where id = ${id} and issue_id = ${issueId} for update`,
      )
    : undefined;
  if (!row) throw new NotFound(`No attachment ${id} on this issue.`);
  return { id: row.id, uploaderId: row.uploader_id, storageKey: row.storage_key };
}

export async function deleteAttachmentRow(em: EntityManager, id: string): Promise<void> {
  await sql(em, q`delete from attachments where id = ${id}`);
}

/** The storage keys of an issue's files, read before the issue is deleted (its rows cascade away). */
export async function storageKeysOfIssue(em: EntityManager, issueId: string): Promise<string[]> {
  const rows = await sql<{ storage_key: string }>(
    em,
    q`select storage_key from attachments where issue_id = ${issueId}`,
  );
  return rows.map((r) => r.storage_key);
}

/** What a download serves: no visibility here, the URL's signature is the right to read. */
export async function findDownload(
  em: EntityManager,
  id: string,
): Promise<{ storageKey: string; contentType: string; filename: string; size: number } | undefined> {
  if (!isUuid(id)) return undefined;
  const row = await sqlOne<{ storage_key: string; content_type: string; filename: string; size: string }>(
    em,
    q`select storage_key, content_type, filename, size from attachments where id = ${id}`,
  );
  return (
    row && {
      storageKey: row.storage_key,
      contentType: row.content_type,
      filename: row.filename,
      size: Number(row.size),
    }
  );
}

/** Of the store's keys, those no attachment names: the orphan sweep's to remove. */
export async function keysWithoutRow(em: EntityManager, keys: string[]): Promise<string[]> {
  if (!keys.length) return [];
  const rows = await sql<{ key: string }>(
    em,
    q`select k.key from unnest(${keys}::text[]) as k(key)
       where not exists (select 1 from attachments a where a.storage_key = k.key)`,
  );
  return rows.map((r) => r.key);
}
