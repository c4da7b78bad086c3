import { type Deps, defineCommand, type Opts } from "../../command.js";
import { printJson, printTable, relativeTime } from "../../output.js";

export const spec = defineCommand({
  name: "keys list",
  summary: "List your API keys that reach this workspace",
  args: [],
  options: {},
  examples: ["tracker keys list"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const keys = await deps.tracker.apiKeys.list();
  if (opts.json) return printJson(deps, keys);
  printTable(deps, keys, [
    { header: "ID", value: (k) => k.id },
    { header: "NAME", value: (k) => k.name },
    { header: "SCOPE", value: (k) => k.scope },
    {
      header: "LAST USED",
      value: (k) => k.lastUsedAt ?? "",
      tty: (k) => relativeTime(k.lastUsedAt) || "never",
    },
    { header: "CREATED", value: (k) => k.createdAt, tty: (k) => relativeTime(k.createdAt) },
  ]);
}
