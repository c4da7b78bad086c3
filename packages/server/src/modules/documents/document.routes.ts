import { handle, inWorkspace, OK } from "../../http/handler.js";
import { getDocument, listDocuments } from "./document.query.js";
import * as documents from "./document.service.js";

export const documentHandlers = [
  handle("listDocuments", async (s, { query }) => ({
    status: 200,
    body: { documents: await listDocuments(inWorkspace(s), query) },
  })),

  handle("createDocument", async (s, { body }) => ({
    status: 201,
    body: { document: await documents.createDocument(inWorkspace(s), body) },
  })),

  handle("getDocument", async (s, { params }) => ({
    status: 200,
    body: { document: await getDocument(inWorkspace(s), params.id) },
  })),

  handle("updateDocument", async (s, { params, body }) => ({
    status: 200,
    body: { document: await documents.updateDocument(inWorkspace(s), params.id, body) },
  })),

  handle("deleteDocument", async (s, { params }) => {
    await documents.deleteDocument(inWorkspace(s), params.id);
    return { status: 200, body: OK };
  }),
];
