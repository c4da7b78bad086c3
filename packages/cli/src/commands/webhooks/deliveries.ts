import { type Schemas, WEBHOOK_DELIVERY_STATUSES } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printList, relativeTime } from "../../output.js";

const STATUSES = WEBHOOK_DELIVERY_STATUSES;

export const spec = defineCommand({
  summary: "Show a webhook endpoint's delivery log, newest first (admins)",
  args: ["id"],
  options: {
    status: {
      type: "string",
      value: "STATUS",
      description: "Only pending, succeeded or failed",
      choices: STATUSES,
    },
    limit: {
      type: "string",
      short: "L",
      value: "N",
      description: "At most N deliveries (default 50, at most 200)",
    },
  },
  examples: [
    "tracker webhooks deliveries 0b9f2c1e-…",
    "tracker webhooks deliveries 0b9f2c1e-… --status failed",
  ],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const query: { status?: (typeof STATUSES)[number]; limit?: number } = {};
  if (opts.status) query.status = opts.status as (typeof STATUSES)[number];
  if (opts.limit) query.limit = Number(opts.limit);
  const deliveries = await deps.tracker.webhooks.deliveries(opts.id, query, deps.call);
  await printList<Schemas["WebhookDelivery"]>(deps, opts, deliveries, [
    { header: "ID", value: (d) => d.id, style: (_, c) => c.gray },
    { header: "EVENT", value: (d) => d.eventType },
    { header: "STATUS", value: (d) => d.status },
    { header: "ATTEMPTS", value: (d) => String(d.attempts) },
    {
      header: "RESPONSE",
      value: (d) => (d.responseStatus === null ? (d.error ?? "") : String(d.responseStatus)),
      flex: true,
    },
    { header: "MS", value: (d) => (d.durationMs === null ? "" : String(d.durationMs)) },
    { header: "CREATED", value: (d) => d.createdAt, tty: (d) => relativeTime(d.createdAt) },
  ]);
}
