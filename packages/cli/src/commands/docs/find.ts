import { CommandError, type Deps } from "../../command.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A document's id, from its id or its exact title (case-insensitive), as people remember documents. */
export async function documentId(deps: Deps, ref: string): Promise<string> {
  if (UUID.test(ref)) return ref;
  const docs = await deps.tracker.documents.list({ q: ref.slice(0, 200) }, deps.call);
  const exact = docs.filter((d) => d.title.toLowerCase() === ref.toLowerCase());
  if (exact.length === 1) return exact[0]!.id;
  const candidates = (exact.length ? exact : docs).map((d) => `  ${d.id}\t${d.team.key}\t${d.title}`);
  throw new CommandError(
    exact.length > 1
      ? `several documents are titled "${ref}"; name one by id:\n${candidates.join("\n")}`
      : `no document titled "${ref}"${candidates.length ? `; documents that match:\n${candidates.join("\n")}` : ""}`,
  );
}
