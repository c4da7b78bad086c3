import type { Tracker } from "@tracker/sdk";
import { ToolRefusal } from "../errors.js";

/** The endpoint an agent names, by id or by its URL (what people remember), or a refusal listing them. */
export async function findWebhook(
  tracker: Tracker,
  ref: string,
  read: Parameters<Tracker["webhooks"]["list"]>[0],
) {
  const hooks = await tracker.webhooks.list(read);
  const hook = hooks.find((h) => h.id === ref || h.url === ref);
  if (!hook)
    throw new ToolRefusal(
      `No webhook "${ref}". Webhooks: ${hooks.map((h) => h.url).join(", ") || "none"} (list_webhooks shows their ids).`,
    );
  return hook;
}
