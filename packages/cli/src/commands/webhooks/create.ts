import type { BodyOf } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printJson, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Register a webhook endpoint and print its signing secret (admins)",
  description:
    "The endpoint (an http or https URL) receives every change the events take (entity, entity.action or *; default *),\nsigned as Standard Webhooks says. The secret is shown only once: verify deliveries with it\n(the SDK's verifyWebhook).",
  args: ["endpoint"],
  options: {
    event: {
      type: "string",
      multiple: true,
      value: "EVENT",
      description: "issue, issue.created, comment, ... or * (repeatable, or comma-separated)",
    },
    team: { type: "string", value: "KEY", description: "Only this team's changes", complete: "teams" },
  },
  examples: [
    "tracker webhooks create https://ci.example.com/hook",
    "tracker webhooks create https://bot.example.com/t --event issue.created,comment --team ENG",
  ],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const body: BodyOf<"createWebhook"> = { url: opts.endpoint };
  const events = (opts.event ?? []).flatMap((e) =>
    e
      .split(",")
      .map((x) => x.trim())
      .filter(Boolean),
  );
  if (events.length) body.events = events;
  if (opts.team) body.team = opts.team;
  const created = await deps.tracker.webhooks.create(body, deps.call);
  if (opts.json) return printJson(deps, created);
  if (deps.isTTY)
    say(
      deps,
      `Registered ${created.webhook.url} (${created.webhook.id}). Save the secret now; it is not shown again.`,
    );
  deps.stdout.write(`${created.secret}\n`);
}
