import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

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
