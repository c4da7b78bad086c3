import { handle, inWorkspace } from "../../http/handler.js";
import { listLabels } from "./label.query.js";
import * as labels from "./label.service.js";

export const labelHandlers = [
  handle("listLabels", async (s, { query }) => ({
    status: 200,
    body: { labels: await listLabels(inWorkspace(s), query.counts === "1") },
  })),

  handle("createLabel", async (s, { body }) => ({
    status: 201,
    body: { label: await labels.createLabel(inWorkspace(s), body) },
  })),

  handle("updateLabel", async (s, { params, body }) => ({
    status: 200,
    body: { label: await labels.updateLabel(inWorkspace(s), params.id, body) },
  })),

  handle("deleteLabel", async (s, { params }) => {
    await labels.deleteLabel(inWorkspace(s), params.id);
    return { status: 200, body: { deleted: true as const } };
  }),

  handle("mergeLabel", async (s, { params, body }) => ({
    status: 200,
    body: await labels.mergeLabel(inWorkspace(s), params.id, body.into),
  })),
];
