import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { contractFile } from "./config.js";
import { freshDatabase } from "./test/databases.js";
import { type PackedPackage, packAndInstall, packedWorkspaces, repoRoot } from "./test/pack.js";
import { spawnLogged } from "./test/spawn-logged.js";

// The server as a package of its own: `npm pack` of it (with the web board and the SDK it serves), installed
// into an empty folder from those tarballs and the registry alone, started there on a PostgreSQL of its
// own (DATABASE_URL). Nothing of this checkout is reachable from the installed copy.
const work = mkdtempSync(path.join(os.tmpdir(), "tracker-server-pack-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("npm pack of the server (installed on its own, real PostgreSQL)", () => {
  it("carries the contract and no test or bench code, installs in an empty folder and starts with DATABASE_URL", {
    timeout: 240_000,
  }, async () => {
    const tarballs = packAndInstall(["sdk", "web", "server"], work, []);
    expect(tarballs).toEqual(["tracker-sdk-0.1.0.tgz", "tracker-server-0.1.0.tgz", "tracker-web-0.1.0.tgz"]);

    const installed = path.join(work, "node_modules", "@tracker", "server");
    expect(readdirSync(installed).sort()).toEqual(["LICENSE", "README.md", "dist", "package.json"]);
    expect(existsSync(path.join(installed, "dist", "test"))).toBe(false);
    expect(existsSync(path.join(installed, "dist", "bench"))).toBe(false);
    const shipped = parse(readFileSync(path.join(installed, "dist", "openapi.yaml"), "utf8"));
    expect(shipped).toEqual(parse(readFileSync(contractFile, "utf8")));

    // Development mode (the default): an empty database is migrated and gets a demo workspace and key.
    const {
      child: server,
      log: output,
      exited,
    } = spawnLogged(path.join(work, "node_modules", ".bin", "tracker-server"), [], {
      cwd: work,
      env: {
        PATH: process.env.PATH,
        HOME: work,
        DATABASE_URL: await freshDatabase(`server_pack_${process.pid}`),
        PORT: "0",
        LOG_LEVEL: "info",
      },
    });
    try {
      await expect.poll(output, { timeout: 90_000, interval: 200 }).toMatch(/API key: trk_\S+\s+Try: curl/);
      const [, key, port] = /API key: (trk_\S+)\s+Try: curl .*?localhost:(\d+)/.exec(output()) ?? [];
      const base = `http://127.0.0.1:${port}`;
      const users = await fetch(`${base}/api/v1/users`, { headers: { authorization: `Bearer ${key}` } });
      expect(users.status).toBe(200);
      const contract = (await (await fetch(`${base}/api/v1/openapi.json`)).json()) as {
        info: { version: string };
      };
      expect(contract.info.version).toBe(shipped.info.version);
      const board = await fetch(`${base}/`);
      expect(board.headers.get("content-type")).toContain("text/html");
      expect(await board.text()).not.toContain("The web board is not built");
    } finally {
      server.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  });
});

/**
 * Exports that point outside the tarball on purpose: the test harness the other workspaces' tests import
 * (`src/test/testing.ts` says so); a published server carries `dist` alone.
 */
const WORKSPACE_ONLY_EXPORTS: Record<string, string[]> = { "@tracker/server": ["./testing"] };

/** Every file path an `exports` entry can resolve to, whatever the conditions. */
function targetsOf(entry: unknown): string[] {
  if (typeof entry === "string") return [entry];
  if (entry && typeof entry === "object") return Object.values(entry).flatMap(targetsOf);
  return [];
}

/** What is wrong with a package's tarball, for its users: one line per fault. */
function faults(pkg: PackedPackage, license: string): string[] {
  const found: string[] = [];
  const has = new Set(pkg.files);
  for (const needed of ["package.json", "README.md", "LICENSE"])
    if (!has.has(needed)) found.push(`no ${needed}`);
  if (has.has("LICENSE") && readFileSync(path.join(pkg.dir, "LICENSE"), "utf8") !== license)
    found.push("LICENSE differs from the repository's");
  if (!pkg.files.some((f) => f.startsWith("dist/"))) found.push("no dist/");
  const { bin = {}, main, types, exports = {} } = pkg.manifest;
  const skipped = WORKSPACE_ONLY_EXPORTS[pkg.name] ?? [];
  const targets = [
    ...Object.entries(bin).map(([name, file]) => [`bin ${name}`, file]),
    ...[main, types].filter((f): f is string => !!f).map((file) => ["main", file]),
    ...Object.entries(exports)
      .filter(([subpath]) => !skipped.includes(subpath))
      .flatMap(([subpath, entry]) => targetsOf(entry).map((file) => [`export ${subpath}`, file])),
  ];
  for (const [what, file] of targets) {
    const inside = path.posix.normalize(file as string);
    if (!has.has(inside)) found.push(`${what}: ${inside} is not in the tarball`);
  }
  for (const file of pkg.files) {
    if (/\.test(-d)?\./.test(file)) found.push(`a test: ${file}`);
    if (/(^|\/)(__toolsnaps__|__snapshots__|__fixtures__|fixtures|tests?)(\/|$)|\.snap$/.test(file))
      found.push(`a snapshot or test helper: ${file}`);
    if (!file.endsWith(".map")) continue;
    const map = JSON.parse(readFileSync(path.join(pkg.dir, file), "utf8")) as {
      sources: string[];
      sourceRoot?: string;
    };
    for (const source of map.sources) {
      const resolved = path.posix.join(path.posix.dirname(file), map.sourceRoot ?? "", source);
      if (!has.has(resolved)) found.push(`${file} maps ${resolved}, which is not in the tarball`);
    }
  }
  return found;
}

describe("npm pack of every package (what each tarball holds)", () => {
  it("carries README, LICENSE, dist and what bin, main and exports name; no tests, snapshots, test helpers or orphan source maps", {
    timeout: 120_000,
  }, () => {
    const packed = packedWorkspaces();
    expect(packed.map((p) => p.name).sort()).toEqual([
      "@tracker/cli",
      "@tracker/examples",
      "@tracker/mcp-tools",
      "@tracker/sdk",
      "@tracker/server",
      "@tracker/web",
    ]);
    const license = readFileSync(path.join(repoRoot, "LICENSE"), "utf8");
    expect(license).toContain("Copyright (c) 2026 The Tracker authors");
    expect(Object.fromEntries(packed.map((p) => [p.name, faults(p, license)]))).toEqual(
      Object.fromEntries(packed.map((p) => [p.name, []])),
    );
  });
});
