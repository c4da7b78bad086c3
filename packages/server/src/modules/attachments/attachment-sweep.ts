import type { EntityManager } from "@mikro-orm/postgresql";
import { keysWithoutRow } from "./attachment.query.js";
import type { AttachmentStore } from "./attachment-store.js";

/**
 * Files are kept this long before a missing row makes them orphans: an upload writes its file first and
 * its row after, and a file an upload is still writing (a temporary file) must not be swept under it.
 */
export const ORPHAN_GRACE_MS = 60 * 60_000;

/**
 * Removes the store's files that no attachment names, older than {@link ORPHAN_GRACE_MS}: those of
 * deleted issues (their rows went with them, `attachment.entity.ts`), of a delete whose file removal
 * failed, of a write cut short by a crash. Resolves to how many it removed.
 */
export async function sweepOrphanAttachments(
  em: EntityManager,
  store: AttachmentStore,
  graceMs = ORPHAN_GRACE_MS,
): Promise<number> {
  const before = Date.now() - graceMs;
  let removed = 0;
  let batch: string[] = [];
  const flush = async () => {
    for (const key of await keysWithoutRow(em.fork(), batch)) {
      await store.remove(key);
      removed++;
    }
    batch = [];
  };
  for await (const object of store.list()) {
    if (object.modifiedAt.getTime() > before) continue;
    batch.push(object.key);
    if (batch.length >= 500) await flush();
  }
  await flush();
  return removed;
}
