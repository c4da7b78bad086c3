// Shared by the bench and the screenshot script: a real server with the built board, data made through
// the SDK, and Chromium driven by playwright-core (the browser tests' choice: src/test/chromium.mjs).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createTracker } from "@tracker/sdk";
import { chromium } from "playwright-core";
import { findChromium } from "../src/test/chromium.mjs";

export const WEB_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SERVER_MAIN = path.resolve(WEB_ROOT, "../server/dist/main.js");

/**
 * The server to measure: the one at TRACKER_URL with TRACKER_API_KEY when both are set, else a fresh
 * development server (built `packages/server/dist`, embedded PostgreSQL in a temporary folder) whose demo
 * key is read from its output.
 */
export async function startServer() {
  if (process.env.TRACKER_URL && process.env.TRACKER_API_KEY) {
    return {
      url: process.env.TRACKER_URL.replace(/\/+$/, ""),
      apiKey: process.env.TRACKER_API_KEY,
      stop: async () => {},
    };
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), "tracker-web-bench-"));
  const child = spawn(process.execPath, [SERVER_MAIN], {
    env: { ...process.env, PORT: "0", TRACKER_DATA_DIR: dataDir, NODE_ENV: "development", LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  const ready = new Promise((resolve, reject) => {
    child.on("exit", (code) => reject(new Error(`the server exited (${code}):\n${output}`)));
    child.stdout.on("data", (chunk) => {
      output += chunk;
      const key = /API key: (trk_\S+)/.exec(output)?.[1];
      const url = /"url":"(http:\/\/localhost:\d+)\/api\/v1"/.exec(output)?.[1];
      if (key && url) resolve({ url, apiKey: key });
    });
  });
  const { url, apiKey } = await ready;
  return {
    url,
    apiKey,
    stop: async () => {
      child.removeAllListeners("exit");
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function trackerFor(server) {
  return createTracker({ baseUrl: server.url, apiKey: server.apiKey });
}

/** Runs `work` over `items`, `limit` at a time. */
export async function inBatches(items, limit, work) {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (queue.length) await work(queue.shift());
    }),
  );
}

let announced = false;

/** A headless Chromium with a fresh profile (an empty cache: a cold load). */
export async function launch() {
  const { executablePath, args, description } = await findChromium();
  if (!announced) console.log(`Browser: ${description}`);
  announced = true;
  const profile = mkdtempSync(path.join(tmpdir(), "tracker-web-profile-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args,
    viewport: { width: 1440, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** A context whose pages start signed in with `apiKey` (what the sign-in form stores). */
export async function signedIn(context, apiKey) {
  await context.addInitScript((key) => localStorage.setItem("tracker.apiKey", key), apiKey);
}
