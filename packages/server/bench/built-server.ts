import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The built server (`dist/main.js`), as `npm start` runs it. */
const serverMain = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist/main.js");

export interface BuiltServer {
  url: string;
  /** The development workspace's key, which the server prints on its first start in `dataDir`. */
  key: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts the built server on a fresh data folder in development mode (its demo workspace and key), on a free
 * port, with the rate limit off; `env` adds to or overrides that. Resolves once it prints its key and address.
 */
export async function startBuiltServer(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<BuiltServer> {
  const child = spawn(process.execPath, ["--max-old-space-size=1024", serverMain], {
    env: {
      ...process.env,
      NODE_ENV: "development",
      LOG_LEVEL: "warn",
      PORT: "0",
      TRACKER_DATA_DIR: dataDir,
      TRACKER_RATE_LIMIT_PER_MINUTE: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout.on("data", (d) => {
    log += d;
  });
  child.stderr.on("data", (d) => {
    log += d;
  });
  const deadline = Date.now() + 90_000;
  for (;;) {
    // The development banner: `Try: curl -H "Authorization: Bearer trk_…" http://localhost:<port>/api/v1/users`.
    const port = /localhost:(\d+)\/api\/v1/.exec(log)?.[1];
    const key = /API key: (trk_\S+)/.exec(log)?.[1];
    if (port && key)
      return {
        url: `http://127.0.0.1:${port}`,
        key,
        pid: child.pid!,
        stop: async () => {
          child.kill("SIGTERM");
          await new Promise((resolve) => child.once("exit", resolve));
        },
      };
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`the server did not start:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
