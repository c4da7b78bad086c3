import { connect, type Socket } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { freshDatabase } from "../test/databases.js";
import { spawnLogged } from "../test/spawn-logged.js";

const main = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist/main.js");

/** Opens `n` TCP connections and keeps those the server accepts (each one file descriptor of the server). */
async function openConnections(port: number, n: number): Promise<Socket[]> {
  return Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<Socket>((resolve) => {
          const socket = connect(port, "127.0.0.1");
          socket.on("error", () => resolve(socket));
          socket.on("connect", () => setTimeout(() => resolve(socket), 200));
        }),
    ),
  );
}

// Every open event stream is a file descriptor of the server: an instance holding many streams can reach its
// open-files limit (README, "Many streams on one instance"). Past it, new connections are turned away and the
// server carries on: it does not exit and take every open stream with it.
describe("a server at its open-files limit", () => {
  it("turns new connections away, keeps running and serves again once connections close", {
    timeout: 120_000,
  }, async () => {
    const { child, log, exited } = spawnLogged(
      "sh",
      ["-c", `ulimit -n 256 && exec "${process.execPath}" "${main}"`],
      {
        env: {
          ...process.env,
          DATABASE_URL: await freshDatabase(`open_files_${process.pid}`),
          PORT: "0",
          NODE_ENV: "development",
          LOG_LEVEL: "info",
        },
      },
    );
    try {
      await expect.poll(log, { timeout: 90_000, interval: 200 }).toMatch(/API key: trk_\S+\s+Try: curl/);
      const [, key, port] = /API key: (trk_\S+)\s+Try: curl .*?localhost:(\d+)/.exec(log()) ?? [];
      const users = () =>
        fetch(`http://127.0.0.1:${port}/api/v1/users`, { headers: { authorization: `Bearer ${key}` } });

      // Twice the limit, in rounds, so the server hits the limit again and again.
      const held: Socket[] = [];
      for (let round = 0; round < 4; round++) held.push(...(await openConnections(Number(port), 150)));
      for (const socket of held) socket.destroy();

      await expect
        .poll(async () => (await users().catch(() => undefined))?.status, { timeout: 30_000 })
        .toBe(200);
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  });
});
