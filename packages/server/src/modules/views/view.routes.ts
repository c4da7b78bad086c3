import { handle, inWorkspace, OK } from "../../http/handler.js";
import { listViewDefaults, listViews } from "./view.query.js";
import * as views from "./view.service.js";

export const viewHandlers = [
  handle("listViews", async (s) => ({
    status: 200,
    body: { views: await listViews(inWorkspace(s)) },
  })),

  handle("createView", async (s, { body }) => ({
    status: 201,
    body: { view: await views.createView(inWorkspace(s), body) },
  })),

  // The service's API answers `{ok}`; the view as it is now rides beside it (the contract's updateView).
  handle("updateView", async (s, { params, body }) => ({
    status: 200,
    body: { ok: true as const, view: await views.updateView(inWorkspace(s), params.id, body) },
  })),

  handle("deleteView", async (s, { params }) => {
    await views.deleteView(inWorkspace(s), params.id);
    return { status: 200, body: OK };
  }),

  handle("listViewDefaults", async (s, { query }) => ({
    status: 200,
    body: { defaults: await listViewDefaults(inWorkspace(s), query.viewKey) },
  })),

  handle("putViewDefault", async (s, { body }) => ({
    status: 200,
    body: { default: await views.putViewDefault(inWorkspace(s), body) },
  })),

  handle("deleteViewDefault", async (s, { query }) => {
    await views.deleteViewDefault(inWorkspace(s), query.viewKey, query.scope);
    return { status: 200, body: OK };
  }),
];
