import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { parse } from "yaml";
import { contractFile } from "./config.js";
import { withDatabase } from "./test/global-setup.js";
import { packAndInstall } from "./test/pack.js";

// The server as a package of its own: `npm pack` of it (with the web board and the SDK it serves), installed
// into an empty folder from those tarballs and the registry alone, started there on a PostgreSQL of its
// own (DATABASE_URL). Nothing of this checkout is reachable from the installed copy.
const work = mkdtempSync(path.join(os.tmpdir(), "tracker-server-pack-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function emptyDatabase(): Promise<string> {
  const name = `server_pack_${process.pid}`;
  const admin = new pg.Client({ connectionString: inject("databaseUrl") });
  await admin.connect();
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  await admin.end();
  return withDatabase(inject("databaseUrl"), name);
}

describe("npm pack of the server (installed on its own, real PostgreSQL)", () => {
  it("carries the contract and no test or bench code, installs in an empty folder and starts with DATABASE_URL", {
    timeout: 240_000,
  }, async () => {
    const tarballs = packAndInstall(["sdk", "web", "server"], work, []);
    expect(tarballs).toEqual(["tracker-sdk-0.1.0.tgz", "tracker-server-0.1.0.tgz", "tracker-web-0.1.0.tgz"]);

    const installed = path.join(work, "node_modules", "@tracker", "server");
    expect(readdirSync(installed).sort()).toEqual(["dist", "package.json"]);
    expect(existsSync(path.join(installed, "dist", "test"))).toBe(false);
    expect(existsSync(path.join(installed, "dist", "bench"))).toBe(false);
    const shipped = parse(readFileSync(path.join(installed, "dist", "openapi.yaml"), "utf8"));
    expect(shipped).toEqual(parse(readFileSync(contractFile, "utf8")));

    // Development mode (the default): an empty database is migrated and gets a demo workspace and key.
    const server = spawn(path.join(work, "node_modules", ".bin", "tracker-server"), [], {
      cwd: work,
      env: {
        PATH: process.env.PATH,
        HOME: work,
        DATABASE_URL: await emptyDatabase(),
        PORT: "0",
        LOG_LEVEL: "info",
      },
    });
    let log = "";
    server.stdout.setEncoding("utf8").on("data", (d: string) => {
      log += d;
    });
    server.stderr.setEncoding("utf8").on("data", (d: string) => {
      log += d;
    });
    const exited = new Promise<number | null>((resolve) => server.on("close", resolve));
    try {
      await expect
        .poll(() => log, { timeout: 90_000, interval: 200 })
        .toMatch(/API key: trk_\S+\s+Try: curl/);
      const [, key, port] = /API key: (trk_\S+)\s+Try: curl .*?localhost:(\d+)/.exec(log) ?? [];
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
