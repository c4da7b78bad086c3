import { readFileSync, statSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { startTestServer, type TestServer } from "@tracker/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, rows, runBinary, useSession } from "../../test/binary.js";
import { terminal } from "../../test/terminal.js";

// Logging in, exit codes 3 and 4, --version and help: the built binary against real servers.
const s = useSession();
let other: TestServer;
let otherToken: string;
beforeAll(async () => {
  other = await startTestServer();
  otherToken = (await other.bootstrap({ name: "Grace Hopper", team: { key: "OPS", name: "Operations" } }))
    .apiKey.token;
});
afterAll(async () => {
  await other?.close();
});

/** A user with a fresh config directory and no TRACKER_* variables. */
const loggedOut = (home: string) => ({
  HOME: home,
  XDG_CONFIG_HOME: home,
  TRACKER_URL: undefined,
  TRACKER_API_KEY: undefined,
});

describe("tracker auth (real servers, real binary)", () => {
  it("logs in with a key from stdin, stored for its owner only, and commands then need no variables", async () => {
    const home = path.join(s.configHome, "ada");
    const env = loggedOut(home);
    const login = await s.run(["auth", "login", "--url", s.server.url, "--with-token"], {
      env,
      input: `${s.token}\n`,
    });
    expect(login).toMatchObject({ code: 0, stdout: "" });
    expect(login.stderr).toBe(
      `Logged in to ${s.server.url} as Ada Lovelace (${s.user.email}), workspace ${s.workspace.slug}.\n`,
    );

    const file = path.join(home, "tracker", "config.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
      default: s.server.url,
      servers: { [s.server.url]: { apiKey: s.token, user: s.user.email } },
    });
    expect((await s.run(["teams", "list", "--jq", ".[].key"], { env })).stdout).toBe("ENG\n");
    // An empty TRACKER_URL (and key) is an unset one: the login's server is used, at a terminal too.
    const emptied = terminal(s, ["teams", "list"], { ...env, TRACKER_URL: "", TRACKER_API_KEY: "" });
    expect(await emptied.exited).toBe(0);
    expect(emptied.plain()).toContain("Engineering");
    expect((await s.run(["auth", "token"], { env })).stdout).toBe(`${s.token}\n`);

    // A second server: it becomes the default, and --url reaches the first.
    await s.run(["auth", "login", "--url", other.url, "--with-token"], { env, input: otherToken });
    expect((await s.run(["teams", "list", "--jq", ".[].key"], { env })).stdout).toBe("OPS\n");
    expect((await s.run(["--url", s.server.url, "teams", "list", "--jq", ".[].key"], { env })).stdout).toBe(
      "ENG\n",
    );
    const status = await s.run(["auth", "status"], { env });
    expect(status.code).toBe(0);
    expect(rows(status)).toEqual([
      ["", s.server.url, s.user.email, s.workspace.slug, "login", "ok"],
      ["*", other.url, expect.stringContaining("@"), expect.any(String), "login", "ok"],
    ]);

    expect((await s.run(["auth", "logout"], { env })).stderr).toBe(
      `Logged out of ${other.url}. The default server is now ${s.server.url}.\n`,
    );
    expect((await s.run(["teams", "list", "--jq", ".[].key"], { env })).stdout).toBe("ENG\n");
    await s.run(["auth", "logout"], { env });
    const none = await s.run(["auth", "status"], { env });
    expect(none.code).toBe(4);
    expect(none.stderr).toBe("not logged in to http://localhost:3000; run 'tracker auth login'\n");
    const noKey = await s.run(["teams", "list"], { env });
    expect(noKey.code).toBe(4);
    expect(noKey.stderr).toContain(
      "not authenticated: no API key for http://localhost:3000.\nRun 'tracker auth login'",
    );
  });

  it("refuses a key the server does not know, and asks for --with-token without a terminal", async () => {
    const home = path.join(s.configHome, "mallory");
    const bad = await s.run(["auth", "login", "--url", s.server.url, "--with-token"], {
      env: loggedOut(home),
      input: "trk_nope",
    });
    expect(bad.code).toBe(4);
    expect(bad.stderr).toContain("unauthenticated:");
    expect(() => statSync(path.join(home, "tracker", "config.json"))).toThrow();
    const noTty = await s.run(["auth", "login", "--url", s.server.url], { env: loggedOut(home) });
    expect(noTty.code).toBe(2);
    expect(noTty.stderr).toContain("--with-token is required without a terminal");
  });

  it("lets TRACKER_URL, TRACKER_API_KEY and TRACKER_WORKSPACE win over the login", async () => {
    const home = path.join(s.configHome, "env");
    await s.run(["auth", "login", "--url", other.url, "--with-token"], {
      env: loggedOut(home),
      input: otherToken,
    });
    const viaEnv = await s.run(["teams", "list", "--jq", ".[].key"], {
      env: { HOME: home, XDG_CONFIG_HOME: home },
    });
    expect(viaEnv.stdout).toBe("ENG\n");
    const status = json<{ servers: { url: string; source: string; default: boolean }[] }>(
      await s.run(["auth", "status", "--json"], { env: { HOME: home, XDG_CONFIG_HOME: home } }),
    );
    expect(status.servers.find((r) => r.default)).toMatchObject({
      url: s.server.url,
      source: "TRACKER_API_KEY",
    });
    const wrongWs = await s.run(["users", "list"], {
      env: { XDG_CONFIG_HOME: home, TRACKER_WORKSPACE: "nowhere" },
    });
    expect(wrongWs.code).toBe(1);
  });
});

describe("tracker exit codes 3 and 4, --version and help (real binary)", () => {
  it("exits 3 when nothing listens, and 3 with a time-out message when the server is silent", async () => {
    const closed = await runBinary(["teams", "list"], {
      env: { TRACKER_URL: "http://127.0.0.1:9", TRACKER_API_KEY: "trk_x", HOME: s.configHome },
    });
    expect(closed.code).toBe(3);
    expect(closed.stderr).toContain("cannot reach server:");
    expect(closed.stderr).toContain("'tracker server start'");

    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const started = Date.now();
      const slow = await runBinary(
        ["issues", "create", "--team", "ENG", "--title", "x", "--timeout", "300ms"],
        {
          env: { TRACKER_URL: `http://127.0.0.1:${port}`, TRACKER_API_KEY: "trk_x", HOME: s.configHome },
        },
      );
      expect(slow.code).toBe(3);
      expect(slow.stderr).toBe(
        `timed out: http://127.0.0.1:${port} did not answer within 300 ms (3 attempts).\n` +
          "Check that the server is running and reachable, or allow more time with --timeout or TRACKER_TIMEOUT_MS.\n",
      );
      expect(Date.now() - started).toBeLessThan(5000);
      const viaEnv = await runBinary(["users", "list"], {
        env: {
          TRACKER_URL: `http://127.0.0.1:${port}`,
          TRACKER_API_KEY: "trk_x",
          TRACKER_TIMEOUT_MS: "200",
          HOME: s.configHome,
        },
      });
      expect(viaEnv.code).toBe(3);
      expect(viaEnv.stderr).toContain("did not answer within 200 ms (3 attempts)");
    } finally {
      silent.close();
    }
  });

  it("exits 4 for an unknown key", async () => {
    const bad = await s.run(["teams", "list"], { env: { TRACKER_API_KEY: "trk_unknown" } });
    expect(bad.code).toBe(4);
    expect(bad.stderr).toBe(
      "unauthenticated: The API key is not valid: unknown or deleted.\n" +
        "Run 'tracker auth login' with a valid key, or set TRACKER_API_KEY (keys start with trk_).\n",
    );
  });

  it("prints its version and documents the exit codes", async () => {
    const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as {
      version: string;
    };
    expect(await runBinary(["--version"])).toEqual({
      code: 0,
      stdout: `tracker version ${pkg.version}\n`,
      stderr: "",
    });
    const help = await runBinary(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("  issues list ");
    expect(help.stdout).toContain("  server start ");
    expect(help.stdout).toMatch(/EXIT CODES\n {2}0 +OK\n {2}1 +The server refused/);
    const unknown = await runBinary(["isues", "list"]);
    expect(unknown).toMatchObject({
      code: 2,
      stderr: 'unknown command "isues"; did you mean "issues"?\nRun \'tracker --help\' for usage.\n',
    });
  });
});
