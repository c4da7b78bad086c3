import { spawn } from "node:child_process";
import { CommandError, type Deps } from "../../command.js";
import { defaultDataDir, serverScript } from "./locate.js";

/**
 * Runs one of the server's data scripts (`backup`, `restore`) on the database `tracker server start` would
 * use: DATABASE_URL, or the embedded one in `dataDir` (default $XDG_DATA_HOME/tracker/data). Its report goes
 * to stderr as it is; a refusal (the script's exit code 2) or a failure is this command's error.
 */
export async function runDataScript(
  name: "backup" | "restore",
  args: string[],
  dataDir: string | undefined,
  deps: Deps,
): Promise<void> {
  const { dir, args: script } = serverScript(name);
  const env: Record<string, string | undefined> = { ...deps.env };
  if (!env.DATABASE_URL) env.TRACKER_DATA_DIR = dataDir ?? env.TRACKER_DATA_DIR ?? defaultDataDir(deps.env);
  const child = spawn(process.execPath, [...script, ...args], {
    cwd: dir,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk;
  });
  child.stderr.on("data", (chunk: Buffer) => {
    err += chunk;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", resolve);
  });
  if (code !== 0) throw new CommandError(err.trim() || `${name} stopped with exit code ${code}`);
  deps.stderr.write(out);
}
