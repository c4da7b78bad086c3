import { z } from "zod";
import { documentId, documentRefInput, documentRow, documentText, toDocumentRow } from "../documents.js";
import { defineTool } from "../tool.js";

export const getDocumentTool = defineTool({
  name: "get_document",
  title: "Get document",
  description:
    "Read a document (by id or exact title): its Markdown content, team, creator and linked issues.",
  input: { document: documentRefInput },
  output: { document: documentRow.extend({ content: z.string().nullable(), creator: z.string() }) },
  readOnly: true,
  destructive: false,
  idempotent: true,
  async run(input, { tracker, read }) {
    const doc = await tracker.documents.get(await documentId(tracker, input.document, read), read);
    return {
      text: documentText(doc),
      data: { document: { ...toDocumentRow(doc), content: doc.content, creator: doc.creator.name } },
    };
  },
  about: (input) => ({ document: input.document }),
});
