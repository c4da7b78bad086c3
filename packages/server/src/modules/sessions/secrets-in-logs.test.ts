import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { freshDatabase } from "../../test/databases.js";
import { serverDist, startServerProcess } from "../../test/server-process.js";

/**
 * Passwords and tokens never reach the server's log: the built server, started as `npm start` starts it
 * at its most talkative level, is signed into with a password set by `npm run setup --password-stdin`,
 * an invite is accepted with a password, a session writes and signs out; then the log it wrote is read.
 */
const ADMIN_PASSWORD = "admin-password-7f3a91";
const MEMBER_PASSWORD = "member-password-c4e2d8";

/** `npm run setup` as a command, with the admin's password on standard input. */
function setup(databaseUrl: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        path.join(serverDist, "setup.js"),
        "--workspace",
        "Acme",
        "--email",
        "ada@acme.test",
        "--name",
        "Ada",
        "--password-stdin",
      ],
      { env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "debug" } },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.stdin.end(`${ADMIN_PASSWORD}\n`);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("secrets in the server's log", () => {
  it("holds no password, session token, invite token or API key", async () => {
    const databaseUrl = await freshDatabase(`secrets_log_${process.pid}`, "template");
    const made = await setup(databaseUrl);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout + made.stderr).not.toContain(ADMIN_PASSWORD);
    const adminKey = JSON.parse(made.stdout).apiKey.token as string;

    const server = await startServerProcess({ DATABASE_URL: databaseUrl, LOG_LEVEL: "debug" });
    const secrets = [ADMIN_PASSWORD, MEMBER_PASSWORD, adminKey];
    try {
      const api = (p: string, init: RequestInit = {}) =>
        fetch(`${server.url}/api/v1${p}`, {
          ...init,
          headers: { "content-type": "application/json", ...(init.headers as Record<string, string>) },
        });
      const signIn = await api("/auth/sign-in", {
        method: "POST",
        body: JSON.stringify({ email: "ada@acme.test", password: ADMIN_PASSWORD }),
      });
      expect(signIn.status).toBe(200);
      const adminSession = /tracker_session=([^;]+)/.exec(signIn.headers.get("set-cookie") ?? "")![1]!;
      secrets.push(adminSession);
      // A wrong password is logged no more than a right one.
      const wrong = await api("/auth/sign-in", {
        method: "POST",
        body: JSON.stringify({ email: "ada@acme.test", password: `${MEMBER_PASSWORD}-wrong` }),
      });
      expect(wrong.status).toBe(401);

      const invite = await api("/invites", {
        method: "POST",
        headers: { cookie: `tracker_session=${adminSession}`, "x-requested-with": "test" },
        body: JSON.stringify({ email: "grace@acme.test" }),
      });
      expect(invite.status).toBe(201);
      const inviteToken = ((await invite.json()) as { invite: { url: string } }).invite.url.split("/").pop()!;
      secrets.push(inviteToken);
      const accepted = await api("/invites/accept", {
        method: "POST",
        body: JSON.stringify({ token: inviteToken, name: "Grace", password: MEMBER_PASSWORD }),
      });
      expect(accepted.status).toBe(201);
      secrets.push(((await accepted.json()) as { apiKey: { token: string } }).apiKey.token);

      const member = await api("/auth/sign-in", {
        method: "POST",
        body: JSON.stringify({ email: "grace@acme.test", password: MEMBER_PASSWORD }),
      });
      const memberSession = /tracker_session=([^;]+)/.exec(member.headers.get("set-cookie") ?? "")![1]!;
      secrets.push(memberSession);
      const out = await api("/auth/sign-out", {
        method: "POST",
        headers: { cookie: `tracker_session=${memberSession}`, "x-requested-with": "test" },
      });
      expect(out.status).toBe(200);
      expect((await api("/users", { headers: { authorization: `Bearer ${adminKey}` } })).status).toBe(200);
    } finally {
      await server.stop();
    }
    const log = server.log();
    // The log is there and speaks of these requests: an empty log would pass the rest vacuously.
    expect(log).toContain('"route":"/api/v1/auth/sign-in"');
    for (const secret of secrets) expect(log).not.toContain(secret);
    expect(log.toLowerCase()).not.toContain("argon2");
  });
});
