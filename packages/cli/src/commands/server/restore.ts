import path from "node:path";
import { type Deps, defineCommand, type Opts } from "../../command.js";
import { runDataScript } from "./run-script.js";

export const spec = defineCommand({
  summary: "Fill an empty data folder or database from a backup",
  description:
    "Restores FILE, made by 'tracker server backup', into an empty or absent --data-dir, or into the empty\n" +
    "database at DATABASE_URL. The file is checked whole first: a damaged, truncated or foreign file is\n" +
    "refused before anything is written, and so is a folder or database that is not empty.",
  args: ["file"],
  options: {
    dataDir: { type: "string", value: "DIR", description: "Folder of the embedded database" },
  },
  api: false,
  examples: ["tracker server restore tracker-2026-11-28.backup --data-dir ./restored"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  await runDataScript("restore", [path.resolve(opts.file)], opts.dataDir, deps);
}
