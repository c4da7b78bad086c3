import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Send a webhook delivery again, with the same webhook-id (admins)",
  args: ["id", "delivery"],
  options: {},
  examples: ["tracker webhooks redeliver 0b9f2c1e-… 5d1e…"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const delivery = await deps.tracker.webhooks.redeliver(opts.id, opts.delivery, deps.call);
  if (opts.json) return printJson(deps, delivery);
  say(deps, `Queued ${delivery.eventType} again as delivery ${delivery.id}`);
  deps.stdout.write(`${delivery.id}\n`);
}
