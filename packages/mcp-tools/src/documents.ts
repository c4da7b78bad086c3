// Documents as the docs tools and the document resource show them.
import type { CallOptions, Schemas, Tracker } from "@tracker/sdk";
import { z } from "zod";
import { nameList, ToolRefusal } from "./errors.js";
import { shortTime } from "./format.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const documentRefInput = z.string().min(1).max(255).describe("Document id, or its exact title.");

/** The id of the document `ref` names: an id as is, else the one document with exactly that title. */
export async function documentId(tracker: Tracker, ref: string, read: CallOptions): Promise<string> {
  if (UUID.test(ref)) return ref;
  const found = await tracker.documents.list({ q: ref.slice(0, 200) }, read);
  const exact = found.filter((d) => d.title.toLowerCase() === ref.toLowerCase());
  if (exact.length === 1) return exact[0]!.id;
  if (exact.length > 1)
    throw new ToolRefusal(
      `Several documents are titled "${ref}": ${exact.map((d) => `${d.id} (${d.team.key})`).join(", ")}. Pass the id.`,
    );
  throw new ToolRefusal(
    `No document titled "${ref}". ${
      found.length
        ? `Close matches: ${nameList(
            found.map((d) => d.title),
            10,
          )}.`
        : "search_documents finds documents by their words."
    }`,
  );
}

export const documentRow = z.object({
  id: z.string(),
  title: z.string(),
  team: z.string(),
  updatedAt: z.string(),
  issues: z.array(z.string()),
});
export type DocumentRow = z.output<typeof documentRow>;

export function toDocumentRow(d: Schemas["Document"]): DocumentRow {
  return {
    id: d.id,
    title: d.title,
    team: d.team.key,
    updatedAt: d.updatedAt,
    issues: d.issues.map((i) => i.identifier),
  };
}

export function documentLine(d: DocumentRow): string {
  return `${d.title} · ${d.team} · updated ${shortTime(d.updatedAt)}${d.issues.length ? ` · ${d.issues.join(",")}` : ""} · id ${d.id}`;
}

/** The whole document: its line, its creator, then its content. */
export function documentText(d: Schemas["Document"]): string {
  return [
    documentLine(toDocumentRow(d)),
    `by ${d.creator.name}, created ${shortTime(d.createdAt)}`,
    "",
    d.content?.trim() || "(empty)",
  ].join("\n");
}
