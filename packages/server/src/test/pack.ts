import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const packagesDir = fileURLToPath(new URL("../../../", import.meta.url));
export const repoRoot = path.resolve(packagesDir, "..");

/** Runs npm in `cwd` without its audit and funding chatter; throws with npm's output when it fails. */
export function npm(args: string[], cwd: string): string {
  const result = spawnSync("npm", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, npm_config_audit: "false", npm_config_fund: "false" },
  });
  if (result.status !== 0)
    throw new Error(`npm ${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/**
 * What a person installs: `npm pack` of each named package of this repository (`sdk`, `cli`, `server`,
 * `web`; each built) into `work`, then all the tarballs installed together with `npm install <args>`, the
 * rest coming from the registry or npm's cache. Returns the tarballs' file names.
 */
export function packAndInstall(packages: string[], work: string, installArgs: string[]): string[] {
  for (const pkg of packages) npm(["pack", "--pack-destination", work], path.join(packagesDir, pkg));
  const tarballs = readdirSync(work).filter((f) => f.endsWith(".tgz"));
  npm(["install", "--prefer-offline", ...installArgs, ...tarballs.map((t) => path.join(work, t))], work);
  return tarballs.sort();
}

/** One workspace package's tarball as `npm pack --dry-run` lists it: its folder and the paths it holds. */
export interface PackedPackage {
  name: string;
  dir: string;
  manifest: {
    bin?: Record<string, string>;
    main?: string;
    types?: string;
    exports?: Record<string, unknown>;
  };
  files: string[];
}

/** What `npm pack` of every workspace (each built) would put in its tarball, without writing one. */
export function packedWorkspaces(): PackedPackage[] {
  const listed = JSON.parse(npm(["pack", "--dry-run", "--json", "--workspaces"], repoRoot)) as {
    name: string;
    files: { path: string }[];
  }[];
  const dirs = new Map(
    (
      JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { workspaces: string[] }
    ).workspaces.map((w) => {
      const dir = path.join(repoRoot, w);
      return [
        (JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { name: string }).name,
        dir,
      ];
    }),
  );
  return listed.map(({ name, files }) => {
    const dir = dirs.get(name);
    if (!dir) throw new Error(`npm packed ${name}, which is no workspace of package.json`);
    return {
      name,
      dir,
      manifest: JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")),
      files: files.map((f) => f.path).sort(),
    };
  });
}
