import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import path from "node:path";
import { CommandError } from "../../command.js";

/**
 * The reference server's own entry point for one of its package scripts (`start`, `setup`, `backup`, `restore`), as the node
 * arguments of that script with paths made absolute. Resolved only when `tracker server` runs, so the CLI
 * never loads the server otherwise.
 */
export function serverScript(name: "start" | "setup" | "backup" | "restore"): {
  dir: string;
  args: string[];
} {
  let pkgFile: string;
  try {
    pkgFile = createRequire(import.meta.url).resolve("@tracker/server/package.json");
  } catch {
    throw new CommandError(
      "the Tracker server is not installed beside this CLI (package @tracker/server).\n" +
        "Run tracker from a checkout of Tracker (npm install there), or install @tracker/server next to it.",
    );
  }
  const dir = path.dirname(pkgFile);
  const pkg = JSON.parse(readFileSync(pkgFile, "utf8")) as { scripts?: Record<string, string> };
  const script = pkg.scripts?.[name];
  const words = script?.trim().split(/\s+/) ?? [];
  if (words[0] !== "node") throw new CommandError(`@tracker/server has no "${name}" script that runs node`);
  return { dir, args: words.slice(1).map((w) => (w.startsWith("-") ? w : path.resolve(dir, w))) };
}

/** Where `tracker server` keeps the embedded database: $XDG_DATA_HOME/tracker/data, else ~/.local/share. */
export function defaultDataDir(env: Record<string, string | undefined>): string {
  const base = env.XDG_DATA_HOME || path.join(env.HOME || homedir(), ".local", "share");
  return path.join(base, "tracker", "data");
}
