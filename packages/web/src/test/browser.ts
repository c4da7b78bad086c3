import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type BrowserContext, chromium } from "playwright-core";
import { inject } from "vitest";
import { findChromium } from "./chromium.mjs";

export const WEB_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The newest change among the files a build reads: the board's sources and the SDK's build. */
function newestSource(): number {
  const sources = [path.join(WEB_ROOT, "index.html"), path.join(WEB_ROOT, "vite.config.ts")];
  for (const entry of readdirSync(path.join(WEB_ROOT, "src"), { recursive: true, encoding: "utf8" })) {
    if (!/\.test\.ts$|^test([\\/]|$)/.test(entry)) sources.push(path.join(WEB_ROOT, "src", entry));
  }
  const sdk = path.join(WEB_ROOT, "..", "sdk", "dist", "index.js");
  if (existsSync(sdk)) sources.push(sdk);
  return Math.max(...sources.map((file) => statSync(file).mtimeMs));
}

/**
 * The server serves the board's build: make one if this checkout has none, or if a source changed since
 * (`npm test` builds first; a test run after an edit must not drive the old board).
 */
export function ensureWebBuild(): void {
  const built = path.join(WEB_ROOT, "dist", "index.html");
  const fresh = () => existsSync(built) && statSync(built).mtimeMs >= newestSource();
  if (fresh()) return;
  // Test files run in parallel workers: one builds while the others wait for it, then find it fresh.
  const lock = path.join(WEB_ROOT, ".build-lock");
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      if (Date.now() - since > 5 * 60_000) rmSync(lock, { recursive: true, force: true });
      Atomics.wait(pause, 0, 0, 250);
    }
  }
  try {
    // The production build, as `npm run build` makes it: vitest sets NODE_ENV=test, which would bundle
    // React's development build into the served board.
    if (!fresh())
      execFileSync("npx", ["vite", "build", "--logLevel", "error"], {
        cwd: WEB_ROOT,
        stdio: "inherit",
        env: { ...process.env, NODE_ENV: "production" },
      });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export interface Chromium {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * A headless Chromium with a fresh profile of its own, removed on close: the one the run's global setup
 * chose (`global-setup.ts`; system, `CHROMIUM_PATH` or npm, see `chromium.mjs`).
 */
export async function launchChromium(): Promise<Chromium> {
  const { executablePath, args } = inject("chromium") ?? (await findChromium());
  const profile = mkdtempSync(path.join(tmpdir(), "tracker-web-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args,
    viewport: { width: 1400, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
