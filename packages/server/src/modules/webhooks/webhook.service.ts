import { randomBytes } from "node:crypto";
import { changeActionValues, changeEntityValues } from "@tracker/sdk/schema";
import type { WorkspaceScope } from "../../http/handler.js";
import { Conflict, type FieldError, fieldPath, Invalid, NotFound } from "../../http/problem.js";
import { secretBox } from "../codehost/secret-box.js";
import { isUuid, resolveTeam } from "../shared/resolve.query.js";
import * as db from "./webhook.query.js";
import { checkTarget, TargetRefused } from "./webhook-target.js";
import { loadWebhooksConfig } from "./webhooks-config.js";

/**
 * Outbound webhook endpoints and their delivery logs (the contract's `/webhooks`): admins only, asked by the
 * pipeline before these run (`webhook.read` and `webhook.manage` in rules/permissions.ts).
 */

const ENTITIES = new Set<string>(changeEntityValues);
const ACTIONS = new Set<string>(changeActionValues);

/** Filters of known entities and actions, each once. */
function checkEvents(events: string[], field: string): string[] {
  const errors: FieldError[] = [];
  events.forEach((filter, n) => {
    if (filter === "*") return;
    const [entity, action] = filter.split(".");
    if (!ENTITIES.has(entity!))
      errors.push({ path: fieldPath("body", field, n), message: `unknown entity "${entity}"` });
    else if (action !== undefined && action !== "*" && !ACTIONS.has(action))
      errors.push({ path: fieldPath("body", field, n), message: `unknown action "${action}"` });
  });
  if (errors.length) throw new Invalid("Unknown event types: see errors.", errors);
  return [...new Set(events)];
}

async function checkUrl(url: string): Promise<string> {
  try {
    return (await checkTarget(url, loadWebhooksConfig().allowPrivate)).toString();
  } catch (err) {
    if (!(err instanceof TargetRefused)) throw err;
    throw new Invalid(`The webhook URL is refused: ${err.message}.`, [
      { path: fieldPath("body", "url"), message: err.message },
    ]);
  }
}

async function teamIdOf(
  scope: WorkspaceScope,
  team: string | null | undefined,
): Promise<string | null | undefined> {
  if (team === undefined || team === null) return team;
  return (await resolveTeam(scope, team)).id;
}

async function endpointOrNotFound(scope: WorkspaceScope, id: string): Promise<db.WebhookOut> {
  const endpoint = isUuid(id) ? await db.endpointOf(scope.em, scope.workspace.id, id) : undefined;
  if (!endpoint) throw new NotFound(`No webhook "${id}" in this workspace.`);
  return endpoint;
}

export async function listWebhooks(scope: WorkspaceScope) {
  return db.listEndpoints(scope.em, scope.workspace.id);
}

export async function getWebhook(scope: WorkspaceScope, id: string) {
  return endpointOrNotFound(scope, id);
}

/** Registers an endpoint; its secret (`whsec_<base64>`, Standard Webhooks' form) is answered this once. */
export async function createWebhook(
  scope: WorkspaceScope,
  input: { url: string; events?: string[]; team?: string | null },
): Promise<{ webhook: db.WebhookOut; secret: string }> {
  const events = checkEvents(input.events ?? ["*"], "events");
  const url = await checkUrl(input.url);
  const teamId = (await teamIdOf(scope, input.team)) ?? null;
  const secret = `whsec_${randomBytes(24).toString("base64")}`;
  const webhook = await db.insertEndpoint(scope.em, scope.workspace.id, {
    url,
    events,
    teamId,
    secretSealed: secretBox(scope.config.dataDir).seal(secret),
  });
  return { webhook, secret };
}

export async function updateWebhook(
  scope: WorkspaceScope,
  id: string,
  input: { url?: string; events?: string[]; team?: string | null; enabled?: boolean },
) {
  await endpointOrNotFound(scope, id);
  const events = input.events && checkEvents(input.events, "events");
  const url = input.url === undefined ? undefined : await checkUrl(input.url);
  const teamId = await teamIdOf(scope, input.team);
  const webhook = await db.updateEndpoint(scope.em, scope.workspace.id, id, {
    url,
    events,
    teamId,
    enabled: input.enabled,
  });
  if (!webhook) throw new NotFound(`No webhook "${id}" in this workspace.`);
  return webhook;
}

export async function deleteWebhook(scope: WorkspaceScope, id: string): Promise<void> {
  if (!isUuid(id) || !(await db.deleteEndpoint(scope.em, scope.workspace.id, id)))
    throw new NotFound(`No webhook "${id}" in this workspace.`);
}

export async function listDeliveries(
  scope: WorkspaceScope,
  id: string,
  query: { limit?: number; status?: "pending" | "succeeded" | "failed" },
) {
  const endpoint = await endpointOrNotFound(scope, id);
  return db.listDeliveries(scope.em, endpoint.id, { limit: query.limit ?? 50, status: query.status });
}

export async function redeliver(scope: WorkspaceScope, id: string, deliveryId: string) {
  const endpoint = await endpointOrNotFound(scope, id);
  if (!endpoint.enabled) throw new Conflict("conflict", "The webhook is disabled: enable it first.");
  const delivery = isUuid(deliveryId) ? await db.redeliver(scope.em, endpoint.id, deliveryId) : undefined;
  if (!delivery) throw new NotFound(`No delivery "${deliveryId}" of this webhook.`);
  const { woken: _, ...out } = delivery as db.DeliveryOut & { woken?: unknown };
  return out;
}
