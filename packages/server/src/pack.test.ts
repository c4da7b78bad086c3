import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { contractFile } from "./config.js";
import { freshDatabase } from "./test/databases.js";
import { packAndInstall } from "./test/pack.js";
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
    expect(readdirSync(installed).sort()).toEqual(["dist", "package.json"]);
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
