import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { json, rows, useSession } from "../../test/binary.js";

// `tracker webhooks …` and `tracker issues branch|develop`: the built binary against a real server.
vi.stubEnv("TRACKER_WEBHOOKS_ALLOW_PRIVATE", "1");
vi.stubEnv("TRACKER_WEBHOOKS_POLL_MS", "100");
const s = useSession();
const received: string[] = [];
let receiver: http.Server;
let url: string;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      received.push(body);
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  vi.unstubAllEnvs();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

describe("tracker webhooks (real server, real binary)", () => {
  it("creates an endpoint, lists it and its deliveries, redelivers and deletes", async () => {
    const created = await s.run(["webhooks", "create", url, "--event", "issue.created"]);
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^whsec_\S+\n$/);
    const [hook] = json(await s.run(["webhooks", "list", "--json"])) as { id: string; url: string }[];
    expect(hook!.url).toBe(url);
    expect(rows(await s.run(["webhooks", "list"]))[0]!.slice(1, 3)).toEqual([url, "issue.created"]);

    await s.run(["issues", "create", "--team", "ENG", "--title", "Hooked"]);
    const deadline = Date.now() + 15_000;
    let log: { id: string; status: string }[] = [];
    while (Date.now() < deadline) {
      log = json(await s.run(["webhooks", "deliveries", hook!.id, "--json"])) as typeof log;
      if (log[0]?.status === "succeeded") break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(log[0]!.status).toBe("succeeded");
    expect(received.length).toBe(1);

    const again = await s.run(["webhooks", "redeliver", hook!.id, log[0]!.id]);
    expect(again.code).toBe(0);
    const deleted = await s.run(["webhooks", "delete", hook!.id, "--yes"]);
    expect(deleted.code).toBe(0);
    expect(json(await s.run(["webhooks", "list", "--json"]))).toEqual([]);
  });
});

describe("tracker issues branch and develop", () => {
  it("prints the branch name, and creates then switches to it in a git repository", async () => {
    await s.run(["issues", "create", "--team", "ENG", "--title", "Fix login crash"]);
    const identifier = (
      await s.run(["issues", "list", "--jq", '.[] | select(.title == "Fix login crash") | .identifier'])
    ).stdout.trim();
    const branch = `${identifier.toLowerCase()}-fix-login-crash`;
    expect((await s.run(["issues", "branch", identifier])).stdout).toBe(`${branch}\n`);

    const repo = mkdtempSync(path.join(os.tmpdir(), "tracker-cli-git-"));
    try {
      const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8" }).trim();
      git("init", "-q", "-b", "main");
      git(
        "-c",
        "user.name=T",
        "-c",
        "user.email=t@example.com",
        "commit",
        "-q",
        "--allow-empty",
        "-m",
        "start",
      );
      const env = s.env({ HOME: repo });
      const first = await s.run(["issues", "develop", identifier], { cwd: repo, env });
      expect(first).toMatchObject({ code: 0, stdout: `${branch}\n` });
      expect(git("branch", "--show-current")).toBe(branch);
      git("switch", "-q", "main");
      const second = await s.run(["issues", "develop", identifier, "--json"], { cwd: repo, env });
      expect(JSON.parse(second.stdout)).toMatchObject({ branchName: branch, created: false });
      expect(git("branch", "--show-current")).toBe(branch);

      const outside = mkdtempSync(path.join(os.tmpdir(), "tracker-cli-nogit-"));
      const refused = await s.run(["issues", "develop", identifier], {
        cwd: outside,
        env: { ...env, GIT_CEILING_DIRECTORIES: os.tmpdir() },
      });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/not in a git repository/);
      rmSync(outside, { recursive: true, force: true });
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
