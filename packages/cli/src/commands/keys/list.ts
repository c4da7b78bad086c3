import type { Schemas } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printList, relativeTime } from "../../output.js";

export const spec = defineCommand({
  summary: "List your API keys that reach this workspace",
  args: [],
  options: {},
  examples: ["tracker keys list"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const keys = await deps.tracker.apiKeys.list(deps.call);
  await printList<Schemas["ApiKey"]>(deps, opts, keys, [
    { header: "ID", value: (k) => k.id, style: (_, c) => c.gray },
    { header: "NAME", value: (k) => k.name, flex: true },
    { header: "SCOPE", value: (k) => k.scope },
    { header: "ACCESS", value: (k) => k.access },
    {
      header: "EXPIRES",
      value: (k) => k.expiresAt ?? "",
      tty: (k) => relativeTime(k.expiresAt) || "never",
    },
    {
      header: "LAST USED",
      value: (k) => k.lastUsedAt ?? "",
      tty: (k) => relativeTime(k.lastUsedAt) || "never",
    },
    { header: "CREATED", value: (k) => k.createdAt, tty: (k) => relativeTime(k.createdAt) },
  ]);
}
