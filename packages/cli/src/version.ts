import { readFileSync } from "node:fs";

/** The CLI's version, from its package.json (read at run time: it sits beside dist/ when installed). */
export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return pkg.version;
}
