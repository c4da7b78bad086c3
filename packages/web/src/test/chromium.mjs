// Which Chromium the browser tests, the bench and the screenshot script drive (plain JavaScript, so that the
// bench's `.mjs` scripts share it with the tests). Playwright never downloads a browser here: a system
// Chromium is used when there is one, else the one `npm install` brought (`@sparticuz/chromium`, a
// devDependency of this package), so the tests need nothing but `npm install` (README, "Quick start").
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import {
  accessSync,
  constants,
  createReadStream,
  createWriteStream,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createBrotliDecompress } from "node:zlib";

/** Where a system Chromium is looked for, in order, when `CHROMIUM_PATH` is not set. */
export const SYSTEM_CHROMIUM_PATHS = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome-stable",
  "/usr/bin/google-chrome",
];

/**
 * The flags every launch gets. The network is closed on the development machines and in CI: without the
 * background-networking flags Chromium keeps trying to reach Google's hosts.
 */
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

/**
 * Added for the npm package's headless shell: it ships no SwiftShader beside the binary, so with
 * `--disable-gpu` alone its GPU process fails to start (a dozen ANGLE errors at every launch) before it
 * falls back. None of the package's own serverless flags are taken: `--single-process` and
 * `--in-process-gpu` crash it under Playwright here, and `--disable-web-security` would hide what the
 * browser really enforces.
 */
const BUNDLED_ARGS = ["--disable-software-rasterizer"];

/**
 * @typedef {object} ChromiumChoice
 * @property {string} executablePath
 * @property {string[]} args
 * @property {string} description one line for the test output: which browser, and where it came from
 */

/** @param {string} file */
function executable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** @param {string} file the browser's version as it prints it (`Chromium 153.0.8010.0`) */
function versionOf(file) {
  const out = spawnSync(file, ["--version"], { encoding: "utf8", timeout: 10_000 });
  return out.status === 0 ? out.stdout.trim() : "version unknown";
}

/**
 * The Chromium to launch: `CHROMIUM_PATH` when set (it must exist), else the first system one of
 * `SYSTEM_CHROMIUM_PATHS`, else the npm package's, unpacked on first use.
 * @returns {Promise<ChromiumChoice>}
 */
export async function findChromium() {
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen) {
    if (!executable(chosen)) throw new Error(`CHROMIUM_PATH is ${chosen}, which is not an executable file`);
    return {
      executablePath: chosen,
      args: CHROMIUM_ARGS,
      description: `${versionOf(chosen)} at ${chosen} (CHROMIUM_PATH)`,
    };
  }
  const system = SYSTEM_CHROMIUM_PATHS.find(executable);
  if (system)
    return {
      executablePath: system,
      args: CHROMIUM_ARGS,
      description: `${versionOf(system)} at ${system} (system)`,
    };
  const started = performance.now();
  const { file, version, unpacked } = await bundledChromium();
  const took = unpacked ? `, unpacked in ${((performance.now() - started) / 1000).toFixed(1)} s` : "";
  return {
    executablePath: file,
    args: [...CHROMIUM_ARGS, ...BUNDLED_ARGS],
    description: `${versionOf(file)} at ${file} (npm: @sparticuz/chromium ${version}${took}; no system Chromium)`,
  };
}

/**
 * The npm package ships the browser as one brotli-compressed file. It is unpacked once per package version
 * into `node_modules/.cache` beside it; not with the package's own `executablePath()`, which writes
 * `/tmp/chromium` in place, shared by every version and checkout on the machine, and which a second test
 * worker starting at the same moment would find half written. Here each process writes a file of its own
 * and renames it into place: a reader finds the whole binary or none, and two workers unpacking at once
 * both end with the same complete file.
 * @returns {Promise<{ file: string; version: string; unpacked: boolean }>}
 */
async function bundledChromium() {
  let entry;
  try {
    entry = createRequire(import.meta.url).resolve("@sparticuz/chromium");
  } catch {
    throw new Error(
      "No Chromium: none of " +
        SYSTEM_CHROMIUM_PATHS.join(", ") +
        " exists, and @sparticuz/chromium is not installed (run npm install), nor is CHROMIUM_PATH set",
    );
  }
  const packageDir = path.resolve(path.dirname(entry), "..");
  const { version } = JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8"));
  const dir = path.resolve(packageDir, "..", "..", ".cache", "tracker-chromium", version);
  const file = path.join(dir, "chromium");
  if (executable(file)) return { file, version, unpacked: false };
  mkdirSync(dir, { recursive: true });
  const part = `${file}.${randomUUID()}.part`;
  try {
    await pipeline(
      createReadStream(path.join(packageDir, "bin", "chromium.br")),
      createBrotliDecompress(),
      createWriteStream(part, { mode: 0o755 }),
    );
    renameSync(part, file);
  } finally {
    rmSync(part, { force: true });
  }
  // A browser unpacked for an earlier version of the package is 200 MB that nothing launches any more.
  for (const old of readdirSync(path.dirname(dir)))
    if (old !== version) rmSync(path.join(path.dirname(dir), old), { recursive: true, force: true });
  return { file, version, unpacked: true };
}
