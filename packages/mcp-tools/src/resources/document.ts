import { completeDocuments } from "../completions.js";
import { documentText } from "../documents.js";
import type { ResourceDefinition } from "./resource.js";

export const documentResource: ResourceDefinition = {
  name: "document",
  title: "Document",
  description:
    "A document's Markdown content with its team and linked issues, by id: tracker://documents/{id}.",
  template: "tracker://documents/{id}",
  async list(deps, read) {
    const docs = await deps.tracker.documents.list({}, read);
    return docs.slice(0, 50).map((d) => ({ uri: `tracker://documents/${d.id}`, name: d.title }));
  },
  complete: { id: (deps, typed) => completeDocuments(deps, typed) },
  async read(deps, { id = "" }, read) {
    return documentText(await deps.tracker.documents.get(id, read));
  },
};
