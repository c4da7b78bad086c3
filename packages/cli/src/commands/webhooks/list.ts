import type { Schemas } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printList, relativeTime } from "../../output.js";

export const spec = defineCommand({
  summary: "List the workspace's webhook endpoints (admins)",
  args: [],
  options: {},
  examples: ["tracker webhooks list", "tracker webhooks list --jq '.[] | select(.enabled | not) | .url'"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const hooks = await deps.tracker.webhooks.list(deps.call);
  await printList<Schemas["Webhook"]>(deps, opts, hooks, [
    { header: "ID", value: (h) => h.id, style: (_, c) => c.gray },
    { header: "URL", value: (h) => h.url, flex: true },
    { header: "EVENTS", value: (h) => h.events.join(",") },
    { header: "TEAM", value: (h) => h.team?.key ?? "" },
    {
      header: "STATE",
      value: (h) => (h.enabled ? "enabled" : `disabled${h.disabledReason ? `: ${h.disabledReason}` : ""}`),
    },
    { header: "CREATED", value: (h) => h.createdAt, tty: (h) => relativeTime(h.createdAt) },
  ]);
}
