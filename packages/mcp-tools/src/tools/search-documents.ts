import { z } from "zod";
import { query, text } from "../contract.js";
import { cursorInput, pageFooter, pageOutput, slicePage } from "../cursor.js";
import { documentLine, documentRow, toDocumentRow } from "../documents.js";
import { identifierInput, limitInput, teamInput } from "../inputs.js";
import { defineTool } from "../tool.js";

export const searchDocumentsTool = defineTool({
  name: "search_documents",
  title: "Search documents",
  description:
    'Find documents, most recently updated first: full text over title and content ("a phrase", -word, or), a ' +
    "team's, or those linked to an issue. One line each, with the id get_document takes.",
  input: {
    query: text({ ...query.listDocuments.q, minLength: 1 }).optional(),
    team: teamInput.optional(),
    issue: identifierInput.optional().describe("Only documents linked to this issue."),
    limit: limitInput(100, 20),
    cursor: cursorInput,
  },
  output: { documents: z.array(documentRow), ...pageOutput },
  readOnly: true,
  destructive: false,
  idempotent: true,
  async run(input, { tracker, read }) {
    const query = {
      ...(input.query ? { q: input.query } : {}),
      ...(input.team ? { team: input.team } : {}),
      ...(input.issue ? { issue: input.issue } : {}),
    };
    const all = (await tracker.documents.list(query, read)).map(toDocumentRow);
    const page = slicePage(all, input.cursor, input.limit, query);
    const text = page.items.length
      ? [...page.items.map(documentLine), pageFooter(page.items.length, "document", page)].join("\n")
      : "No documents match.";
    return { text, data: { documents: page.items, cursor: page.cursor, hasMore: page.hasMore } };
  },
  about: (input) => ({ team: input.team, identifier: input.issue }),
});
