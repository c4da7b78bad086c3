import { z } from "zod";
import { schema, text, texts } from "../contract.js";
import { documentId, documentLine, documentRefInput, documentRow, toDocumentRow } from "../documents.js";
import { ToolRefusal } from "../errors.js";
import { teamInput } from "../inputs.js";
import { defineTool, idempotencyKeyInput } from "../tool.js";

export const saveDocumentTool = defineTool({
  name: "save_document",
  title: "Create or update document",
  description:
    "Create a Markdown document in a team (give `title` and `team`), or change the one `document` names: only " +
    "fields given change; `content` replaces the whole text; `issues` replaces the linked issues.",
  input: {
    document: documentRefInput
      .optional()
      .describe("The document to change (id or exact title); omit to create."),
    title: text(schema.DocumentCreate.title).optional(),
    team: teamInput.optional(),
    content: text(schema.DocumentCreate.content).optional().describe("Markdown."),
    issues: texts(schema.DocumentCreate.issues).optional().describe("Issue identifiers to link."),
    idempotencyKey: idempotencyKeyInput,
  },
  output: { document: documentRow, created: z.boolean() },
  readOnly: false,
  destructive: true,
  idempotent: false,
  async run(input, { tracker, read, write }) {
    const { document: ref, idempotencyKey: _key, ...fields } = input;
    const body: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(fields)) if (value !== undefined) body[key] = value;
    let doc: Awaited<ReturnType<typeof tracker.documents.get>>;
    if (ref === undefined) {
      if (!input.title || !input.team)
        throw new ToolRefusal(
          "To create a document give `title` and `team`; to change one, name it in `document`.",
        );
      doc = await tracker.documents.create({ title: input.title, team: input.team, ...body }, write());
    } else {
      if (Object.keys(body).length === 0)
        throw new ToolRefusal("Nothing to change: give title, team, content or issues.");
      doc = await tracker.documents.update(await documentId(tracker, ref, read), body, write());
    }
    const row = toDocumentRow(doc);
    return {
      text: `${ref === undefined ? "Created" : "Saved"} ${documentLine(row)}`,
      data: { document: row, created: ref === undefined },
    };
  },
  about: (input) => ({ team: input.team, document: input.document }),
});
