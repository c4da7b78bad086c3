import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, freshDatabase, spawnLogged } from "@tracker/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, runBinary } from "../../test/binary.js";

// `tracker server setup`, `start`, `backup` and `restore` run the reference server's own entry points; here on a
// database of the test cluster (DATABASE_URL), as a deployment with its own PostgreSQL would.
const home = mkdtempSync(path.join(os.tmpdir(), "tracker-cli-server-"));
let databaseUrl: string;

beforeAll(async () => {
  databaseUrl = await freshDatabase(`cli_server_${process.pid}`, "template");
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** `tracker server start` on `port`, as a deployment runs it, once it listens. */
async function startServer(port: number, env: Record<string, string>) {
  const started = spawnLogged(
    process.execPath,
    [BIN, "server", "start", "--port", String(port), "--production"],
    {
      env: { PATH: process.env.PATH, ...env } as NodeJS.ProcessEnv,
    },
  );
  await expect.poll(started.log, { timeout: 60_000, interval: 200 }).toContain('"msg":"listening"');
  return started;
}

describe("tracker server (real binary, real server)", () => {
  it("sets up the first workspace and logs in with its key, then starts the server that serves it", {
    timeout: 180_000,
  }, async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = { HOME: home, XDG_CONFIG_HOME: home, DATABASE_URL: databaseUrl };
    const setup = await runBinary(
      [
        "server",
        "setup",
        "--workspace-name",
        "Acme",
        "--email",
        "ada@acme.test",
        "--name",
        "Ada Lovelace",
        "--url",
        url,
      ],
      { env, timeoutMs: 60_000 },
    );
    expect(setup.stderr).toBe(
      "Created workspace Acme (acme) with admin Ada Lovelace <ada@acme.test>.\n" +
        `Logged in to ${url} with its account key. Next: 'tracker server start', then 'tracker teams create'.\n`,
    );
    expect(setup.code).toBe(0);
    const missing = await runBinary(["server", "setup", "--email", "x@y.z"], { env });
    expect(missing).toMatchObject({
      code: 2,
      stderr: "--workspace-name is required\nRun 'tracker server setup --help' for usage.\n",
    });

    const { child: server, log, exited } = await startServer(port, env);
    try {
      const created = await runBinary(["teams", "create", "--name", "Engineering", "--key", "ENG"], { env });
      expect(created).toMatchObject({ code: 0, stdout: "ENG\n" });
      const issue = await runBinary(
        ["issues", "create", "-t", "ENG", "--title", "First", "--json", "identifier"],
        { env },
      );
      expect(JSON.parse(issue.stdout)).toEqual({ identifier: "ENG-1" });

      // A backup of the running server, restored into an empty database; a second restore there is refused.
      const file = path.join(home, "acme.backup");
      const backup = await runBinary(["server", "backup", file], { env, timeoutMs: 60_000 });
      expect(backup.stderr).toMatch(/^Backed up \d+ rows in \d+ tables, as of \S+, to .*acme\.backup/);
      expect(backup.code).toBe(0);
      const target = await freshDatabase(`cli_restore_${process.pid}`, "empty");
      const restoreEnv = { ...env, DATABASE_URL: target };
      const restored = await runBinary(["server", "restore", file], { env: restoreEnv, timeoutMs: 60_000 });
      expect(restored).toMatchObject({ code: 0, stderr: expect.stringMatching(/^Restored \d+ rows/) });
      const again = await runBinary(["server", "restore", file], { env: restoreEnv, timeoutMs: 60_000 });
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/restore refused: the database is not empty/);
    } finally {
      server.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
    expect(log()).toContain('"msg":"shutting down"');
  });

  it("sets the admin's password from standard input, with which they sign in on the board", {
    timeout: 180_000,
  }, async () => {
    const env = {
      HOME: home,
      XDG_CONFIG_HOME: home,
      DATABASE_URL: await freshDatabase(`cli_pw_${process.pid}`, "template"),
    };
    const args = [
      "server",
      "setup",
      "--workspace-name",
      "Beta",
      "--email",
      "bo@beta.test",
      "--name",
      "Bo",
      "--no-login",
    ];
    const short = await runBinary([...args, "--password-stdin"], {
      env,
      input: "short\n",
      timeoutMs: 60_000,
    });
    expect(short.code).not.toBe(0);
    expect(short.stderr).toContain("a password has 10 to 256 characters");
    const setup = await runBinary([...args, "--password-stdin"], {
      env,
      input: "correct horse battery\n",
      timeoutMs: 60_000,
    });
    expect(setup.code).toBe(0);
    expect(setup.stderr).toContain("bo@beta.test signs in on the board with that password.");

    const port = await freePort();
    const { child: server, exited } = await startServer(port, env);
    try {
      const signIn = (password: string) =>
        fetch(`http://127.0.0.1:${port}/api/v1/auth/sign-in`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: "bo@beta.test", password }),
        });
      expect((await signIn("not the password")).status).toBe(401);
      const ok = await signIn("correct horse battery");
      expect(ok.status).toBe(200);
      expect(ok.headers.get("set-cookie")).toMatch(/HttpOnly/i);
    } finally {
      server.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  });
});
