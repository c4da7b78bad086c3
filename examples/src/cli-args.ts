import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { TrackerError, TrackerNetworkError } from "@tracker/sdk";

/** True when this module is the script node was asked to run (not imported by a test). */
export function isMain(importMetaUrl: string): boolean {
  return process.argv[1] !== undefined && pathToFileURL(process.argv[1]).href === importMetaUrl;
}

/** Parses `--name value` flags; prints usage and exits 2 when a required one is missing. */
export function flags<const T extends Record<string, { type: "string" | "boolean"; required?: boolean }>>(
  spec: T,
  usage: string,
): { [K in keyof T]: T[K]["type"] extends "boolean" ? boolean : string | undefined } {
  const { values } = parseArgs({
    options: Object.fromEntries(Object.entries(spec).map(([k, v]) => [k, { type: v.type }])),
  });
  for (const [k, v] of Object.entries(spec)) {
    if (v.required && values[k] === undefined) {
      process.stderr.write(`${usage}\n`);
      process.exit(2);
    }
  }
  return values as never;
}

/** Runs a script's job; a refusal or an unreachable server ends it with one clear line and exit 1. */
export async function runMain(job: () => Promise<void>): Promise<void> {
  try {
    await job();
  } catch (err) {
    if (err instanceof TrackerError) process.stderr.write(`${err.code}: ${err.detail}\n`);
    else if (err instanceof TrackerNetworkError) process.stderr.write(`${err.message}\n`);
    else throw err;
    process.exitCode = 1;
  }
}
