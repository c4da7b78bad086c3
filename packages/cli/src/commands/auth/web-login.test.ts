import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { cookieBrowser } from "@tracker/server/testing";
import { describe, expect, it } from "vitest";
import { useSession } from "../../test/binary.js";
import { terminal } from "../../test/terminal.js";

// `tracker auth login --web`: the device login (RFC 8628) in a pseudo-terminal against a real server,
// the code approved by the test as a person would in the browser (the device page, then the consent page).
const s = useSession();

/** Opens the page the command gave, confirms the code, and allows on the consent endpoints with `key`. */
async function approve(page: string, userCode: string, key: string, workspace: string): Promise<void> {
  const go = cookieBrowser(s.server.url);
  /** Submits the page's form with its hidden fields, as the browser does (the first page submits itself). */
  const submit = async (html: string) => {
    const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/.exec(html)!;
    const fields: Record<string, string> = {};
    for (const tag of form[2]!.match(/<input[^>]*>/g) ?? []) {
      const name = /name="([^"]+)"/.exec(tag)?.[1];
      const value = /value="([^"]*)"/.exec(tag)?.[1];
      if (name && value !== undefined) fields[name] = value;
    }
    return go(form[1]!.replace(/&amp;/g, "&"), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
  };
  const confirmPage = await (await submit(await (await go(page)).text())).text();
  expect(confirmPage).toContain(userCode);
  const submitted = await submit(confirmPage);
  const interaction = submitted.headers.get("location")!;
  expect(interaction).toMatch(/\/oauth\/interaction\//);
  const details = (await (await go(`${interaction}/details`)).json()) as { client: { name: string } };
  expect(details.client.name).toMatch(/^Tracker CLI on /);
  const confirm = await go(`${interaction}/confirm`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ workspace }),
  });
  const { redirectTo } = (await confirm.json()) as { redirectTo: string };
  const done = await go(redirectTo);
  expect(await done.text()).toContain("signed in");
}

describe("tracker auth login --web", () => {
  it("shows a code, opens the browser, waits for approval, and stores a token that works", async () => {
    const home = path.join(s.configHome, "web-login");
    mkdirSync(home, { recursive: true });
    const opened = path.join(home, "opened.txt");
    const opener = path.join(home, "open-browser");
    writeFileSync(opener, `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
    chmodSync(opener, 0o755);
    const env = {
      HOME: home,
      XDG_CONFIG_HOME: home,
      TRACKER_URL: undefined,
      TRACKER_API_KEY: undefined,
      BROWSER: opener,
    };

    const t = terminal(s, ["auth", "login", "--web", "--url", s.server.url], env);
    await expect.poll(t.plain, { timeout: 15_000 }).toMatch(/First copy your one-time code: \S+/);
    const userCode = /one-time code: (\S+)/.exec(t.plain())![1]!;
    await expect.poll(() => existsSync(opened), { timeout: 15_000 }).toBe(true);
    const page = readFileSync(opened, "utf8");
    expect(page).toContain(`${s.server.url}/oauth/device`);
    expect(t.plain()).toContain("Waiting for approval");

    await approve(page, userCode, s.token, s.workspace.slug);
    expect(await t.exited).toBe(0);
    expect(t.plain()).toContain(`Logged in to ${s.server.url} as Ada Lovelace`);

    const stored = JSON.parse(readFileSync(path.join(home, "tracker", "config.json"), "utf8")) as {
      servers: Record<string, { apiKey: string; oauth?: { refreshToken: string } }>;
    };
    const entry = stored.servers[s.server.url]!;
    expect(entry.apiKey).not.toMatch(/^trk_/);
    expect(entry.oauth?.refreshToken).toBeTruthy();
    const teams = await s.run(["teams", "list", "--jq", ".[].key"], { env });
    expect(teams).toMatchObject({ code: 0, stdout: "ENG\n" });

    // An access token about to run out is renewed with the refresh token (rotated) before a command runs.
    const file = path.join(home, "tracker", "config.json");
    entry.oauth = { ...entry.oauth!, expiresAt: Date.now() } as typeof entry.oauth;
    writeFileSync(file, JSON.stringify(stored));
    expect(await s.run(["teams", "list", "--jq", ".[].key"], { env })).toMatchObject({
      code: 0,
      stdout: "ENG\n",
    });
    const renewed = (JSON.parse(readFileSync(file, "utf8")) as typeof stored).servers[s.server.url]!;
    expect(renewed.apiKey).not.toBe(entry.apiKey);
    expect(renewed.oauth!.refreshToken).not.toBe(entry.oauth!.refreshToken);

    // Logging out revokes the login at the server: the token no longer works anywhere.
    const logout = await s.run(["auth", "logout"], { env });
    expect(logout).toMatchObject({ code: 0, stderr: `Logged out of ${s.server.url}.\n` });
    const after = await fetch(`${s.server.url}/api/v1/teams`, {
      headers: { authorization: `Bearer ${renewed.apiKey}` },
    });
    expect(after.status).toBe(401);
  });
});
