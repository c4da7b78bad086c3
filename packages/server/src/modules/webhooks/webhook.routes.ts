import { handle, inWorkspace, OK } from "../../http/handler.js";
import * as webhooks from "./webhook.service.js";

export const webhookHandlers = [
  handle("listWebhooks", async (scope) => ({
    status: 200,
    body: { webhooks: await webhooks.listWebhooks(inWorkspace(scope)) },
  })),

  handle("createWebhook", async (scope, { body }) => ({
    status: 201,
    body: await webhooks.createWebhook(inWorkspace(scope), body),
  })),

  handle("getWebhook", async (scope, { params }) => ({
    status: 200,
    body: { webhook: await webhooks.getWebhook(inWorkspace(scope), params.id) },
  })),

  handle("updateWebhook", async (scope, { params, body }) => ({
    status: 200,
    body: { webhook: await webhooks.updateWebhook(inWorkspace(scope), params.id, body) },
  })),

  handle("deleteWebhook", async (scope, { params }) => {
    await webhooks.deleteWebhook(inWorkspace(scope), params.id);
    return { status: 200, body: OK };
  }),

  handle("listWebhookDeliveries", async (scope, { params, query }) => ({
    status: 200,
    body: { deliveries: await webhooks.listDeliveries(inWorkspace(scope), params.id, query) },
  })),

  handle("redeliverWebhook", async (scope, { params }) => ({
    status: 201,
    body: { delivery: await webhooks.redeliver(inWorkspace(scope), params.id, params.deliveryId) },
  })),
];
