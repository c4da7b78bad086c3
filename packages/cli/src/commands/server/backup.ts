import path from "node:path";
import { type Deps, defineCommand, type Opts } from "../../command.js";
import { runDataScript } from "./run-script.js";

export const spec = defineCommand({
  summary: "Back up the server's whole database to a file, while it runs",
  description:
    "Writes one consistent snapshot of the database (DATABASE_URL, or the embedded one in --data-dir) to\n" +
    "FILE without stopping the server: the running server's database when one runs on that folder, else it\n" +
    "is started for the backup. The file is complete or absent; restore it with 'tracker server restore'.",
  args: ["file"],
  options: {
    dataDir: { type: "string", value: "DIR", description: "Folder of the embedded database" },
  },
  api: false,
  examples: ["tracker server backup tracker-$(date +%F).backup"],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  await runDataScript("backup", [path.resolve(opts.file)], opts.dataDir, deps);
}
