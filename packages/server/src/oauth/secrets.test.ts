import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieBrowser, formPost } from "../test/browser-visit.js";
import { freshDatabase } from "../test/databases.js";
import { type ServerProcess, startServerProcess } from "../test/server-process.js";

/**
 * Secrets of apps and agents: no secret is compared as text where timing could tell it (keys and tokens
 * are found by their SHA-256 in an index; PKCE, client secrets and codes are the OAuth library's
 * constant-time comparisons; the tool server compares session bindings with `timingSafeEqual`), and no
 * token, code or verifier reaches the server's log, through a whole OAuth flow on the built server.
 */

const packages = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return name === "node_modules" || name === "test" ? [] : sources(file);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [file] : [];
  });
}

describe("secrets are compared in constant time", () => {
  it("has no == or != on a token, secret, verifier or hash in the server, the tool server or the CLI", () => {
    const comparison =
      /\b\w*(token|secret|verifier|hash)\w*\s*[!=]==?|[!=]==?\s*[\w.]*(token|secret|verifier|hash)\w*\b/gi;
    const files = ["server/src", "mcp-tools/src", "cli/src"].flatMap((dir) =>
      sources(path.join(packages, dir)),
    );
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .map((line, i) => ({ line: line.trim(), at: `${path.relative(packages, file)}:${i + 1}` }))
        .filter(({ line }) => !line.startsWith("//") && !line.startsWith("*") && comparison.test(line)),
    );
    // A test of the pattern itself, so that an empty answer means something.
    expect("if (given === session.tokenHash) return;".match(comparison)).not.toBeNull();
    expect(found).toEqual([]);
  });
});

describe("the log of an OAuth flow", () => {
  let server: ServerProcess;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "tracker-secrets-"));
    server = await startServerProcess({
      DATABASE_URL: await freshDatabase(`secrets_${process.pid}`, "template"),
      TRACKER_DATA_DIR: dataDir,
      NODE_ENV: "development",
    });
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("holds no token, code, verifier or key", async () => {
    const key = server.demoKey!;
    const go = cookieBrowser(server.url);
    const redirect = "http://127.0.0.1:8976/cb";
    const reg = (await (
      await go("/oauth/reg", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ redirect_uris: [redirect], token_endpoint_auth_method: "none" }),
      })
    ).json()) as { client_id: string; registration_access_token?: string };
    const verifier = randomBytes(32).toString("base64url");
    const auth = new URL("/oauth/auth", server.url);
    auth.search = new URLSearchParams({
      client_id: reg.client_id,
      response_type: "code",
      redirect_uri: redirect,
      scope: "write",
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
    }).toString();
    const interaction = (await go(auth.href)).headers.get("location")!;
    const { redirectTo } = (await (
      await go(`${interaction}/confirm`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
        body: JSON.stringify({ workspace: "demo" }),
      })
    ).json()) as { redirectTo: string };
    const code = new URL((await go(redirectTo)).headers.get("location")!).searchParams.get("code")!;
    const tokens = (await (
      await go(
        "/oauth/token",
        formPost({
          grant_type: "authorization_code",
          code,
          redirect_uri: redirect,
          client_id: reg.client_id,
          code_verifier: verifier,
        }),
      )
    ).json()) as { access_token: string; refresh_token: string };
    const refreshed = (await (
      await go(
        "/oauth/token",
        formPost({
          grant_type: "refresh_token",
          refresh_token: tokens.refresh_token,
          client_id: reg.client_id,
        }),
      )
    ).json()) as { access_token: string; refresh_token: string };
    expect(
      (await go("/api/v1/issues", { headers: { authorization: `Bearer ${refreshed.access_token}` } })).status,
    ).toBe(200);
    await go(
      "/oauth/token/revocation",
      formPost({ token: refreshed.access_token, client_id: reg.client_id }),
    );
    expect(
      (await go("/api/v1/issues", { headers: { authorization: `Bearer ${refreshed.access_token}` } })).status,
    ).toBe(401);

    const log = server.log();
    // The flow was logged, by route.
    expect(log).toContain('"route":"/oauth/*"');
    for (const secret of [
      tokens.access_token,
      tokens.refresh_token,
      refreshed.access_token,
      refreshed.refresh_token,
      code,
      verifier,
      ...(reg.registration_access_token ? [reg.registration_access_token] : []),
    ])
      expect(log).not.toContain(secret);
    // The development key is printed at start, for the quick start; no log line of a request holds it.
    const lines = log.split("\n").filter((line) => line.startsWith("{"));
    expect(lines.length).toBeGreaterThan(5);
    expect(lines.filter((line) => line.includes(key))).toEqual([]);
  });
});
