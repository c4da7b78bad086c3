import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { type ChromiumChoice, findChromium } from "./chromium.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    chromium: ChromiumChoice;
  }
}

const WEB_SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Chooses the browser once per run, before the test workers start, when the run holds a browser test: the
 * npm Chromium is unpacked here by one process, and the output names the browser in one line.
 */
export default async function setup(project: TestProject) {
  if (!project.vitest.state.getPaths().some((file) => file.startsWith(WEB_SRC + path.sep))) return;
  const chromium = await findChromium();
  console.log(`Browser tests: ${chromium.description}`);
  project.provide("chromium", chromium);
}
