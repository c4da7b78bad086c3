import { spawn } from "node:child_process";
import { CommandError, type Deps, defineCommand, type Opts, positiveInt } from "../../command.js";
import { say } from "../../output.js";
import { defaultDataDir, serverScript } from "./locate.js";

export const spec = defineCommand({
  summary: "Run the Tracker server on this machine (embedded PostgreSQL, or DATABASE_URL)",
  description:
    "Runs the reference server's own start script until Ctrl-C. Without DATABASE_URL it starts its own\n" +
    "PostgreSQL with the data in --data-dir (default $XDG_DATA_HOME/tracker/data). In development mode\n" +
    "(the default) an empty database gets a demo workspace and its key is printed; 'tracker server setup'\n" +
    "makes a real one.",
  args: [],
  options: {
    port: { type: "string", short: "p", value: "PORT", description: "HTTP port (default $PORT, else 3000)" },
    dataDir: { type: "string", value: "DIR", description: "Folder of the embedded database" },
    production: { type: "boolean", description: "NODE_ENV=production: no demo workspace, no dev endpoints" },
  },
  api: false,
  examples: [
    "tracker server start",
    "DATABASE_URL=postgres://… tracker server start --production --port 8080",
  ],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const { dir, args } = serverScript("start");
  const env: Record<string, string | undefined> = { ...deps.env };
  if (opts.port) env.PORT = String(opts.port === "0" ? 0 : positiveInt("port", opts.port));
  if (!env.DATABASE_URL)
    env.TRACKER_DATA_DIR = opts.dataDir ?? env.TRACKER_DATA_DIR ?? defaultDataDir(deps.env);
  if (opts.production) env.NODE_ENV = "production";
  if (deps.stderrTTY) {
    say(
      deps,
      env.DATABASE_URL
        ? "Starting the server on DATABASE_URL…"
        : `Starting the server with its database in ${env.TRACKER_DATA_DIR}…`,
    );
  }
  const child = spawn(process.execPath, args, { cwd: dir, env, stdio: "inherit" });
  // Ctrl-C at a terminal reaches the server too (same process group); a signal sent to tracker alone is
  // passed on, so the server always shuts down cleanly with its database.
  const stop = (signal: NodeJS.Signals) => () => child.kill(signal);
  const onTerm = stop("SIGTERM");
  process.on("SIGTERM", onTerm);
  deps.call.signal?.addEventListener("abort", stop("SIGINT"), { once: true });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (exitCode) => resolve(exitCode));
  });
  process.off("SIGTERM", onTerm);
  if (code !== 0 && !deps.call.signal?.aborted)
    throw new CommandError(`the server stopped with exit code ${code}`);
}
