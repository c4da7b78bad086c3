import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type BrowserContext, chromium } from "playwright-core";

/** Debian's chromium package; `.ci/run` installs it. Playwright's own browser downloads are never used. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export const WEB_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The server serves the board's build: make one if this checkout has none yet (`npm test` builds first). */
export function ensureWebBuild(): void {
  if (existsSync(path.join(WEB_ROOT, "dist", "index.html"))) return;
  execFileSync("npx", ["vite", "build", "--logLevel", "error"], { cwd: WEB_ROOT, stdio: "inherit" });
}

export interface Chromium {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A headless Chromium with a fresh profile of its own, removed on close. */
export async function launchChromium(): Promise<Chromium> {
  const profile = mkdtempSync(path.join(tmpdir(), "tracker-web-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
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
