import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { verifyWebhook } from "@tracker/sdk";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { type BoardSession, openBoardSession, signIn } from "./test/session.js";

// The settings page's webhooks, in a real Chromium against a real server that delivers to a receiver on
// this machine (which the server allows only when told to: TRACKER_WEBHOOKS_ALLOW_PRIVATE).
vi.stubEnv("TRACKER_WEBHOOKS_ALLOW_PRIVATE", "1");

interface Received {
  body: string;
  headers: http.IncomingHttpHeaders;
}
const received: Received[] = [];
const receiver = http.createServer((req, res) => {
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (chunk: string) => {
    body += chunk;
  });
  req.on("end", () => {
    received.push({ body, headers: req.headers });
    res.end("ok");
  });
});
let hookUrl = "";
let session: BoardSession;
let page: Page;

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/tracker`;
  session = await openBoardSession("Acme Settings");
  await signIn(session);
  page = session.page;
}, 120_000);

afterAll(async () => {
  await session?.close();
  receiver.closeAllConnections();
  receiver.close();
  vi.unstubAllEnvs();
});

describe("settings: webhooks", () => {
  test("an admin adds one, keeps its secret, reads its deliveries, sends one again and deletes it", async () => {
    await page.goto(session.at("/issues"));
    await page
      .getByRole("navigation", { name: "Workspace" })
      .getByRole("link", { name: "Settings", exact: true })
      .click();
    await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Webhooks" }).click();
    await page.getByLabel("Endpoint URL").fill(hookUrl);
    await page.getByLabel("Events").fill("issue.created");
    await page.getByRole("button", { name: "Add webhook" }).click();
    const shown = await page.getByRole("status").filter({ hasText: "Signing secret" }).textContent();
    const secret = /(whsec_\S+)/.exec(shown ?? "")?.[1];
    expect(secret).toBeDefined();

    const issue = await session.tracker.issues.create({ team: "ENG", title: "Hooked from the board" });
    await expect.poll(() => received.length).toBe(1);
    // Signed with the secret the page showed, and carrying the change.
    const event = verifyWebhook(received[0]!.body, received[0]!.headers as Record<string, string>, secret!);
    expect(event.type).toBe("issue.created");
    expect((event.data as { identifier?: string }).identifier).toBe(issue.identifier);

    const hook = page.getByRole("listitem", { name: hookUrl });
    await hook.getByRole("button", { name: "Deliveries" }).click();
    const rows = hook.getByRole("table").getByRole("row");
    await expect
      .poll(async () => (await rows.nth(1).innerText()).split("\t").slice(0, 3))
      .toEqual(["issue.created", "succeeded", "1"]);
    await rows.nth(1).getByRole("button", { name: "Send again" }).click();
    await expect.poll(() => received.length).toBe(2);
    expect(received[1]!.headers["webhook-id"]).toBe(received[0]!.headers["webhook-id"]);

    page.once("dialog", (dialog) => void dialog.accept());
    await hook.getByRole("button", { name: "Delete" }).click();
    await expect.poll(() => page.getByText("No webhooks yet.").count()).toBe(1);
    expect(await session.tracker.webhooks.list()).toEqual([]);
  });
});

describe("the code host", () => {
  test("a pull request GitHub reports for an issue's branch shows on the issue page", async () => {
    const { tracker, server } = session;
    const issue = await tracker.issues.create({ team: "ENG", title: "Fix the login form" });
    const secret = "a-github-webhook-secret";
    const connect = await tracker.raw.PUT("/workspace/codehost", { body: { provider: "github", secret } });
    expect(connect.response.status).toBe(200);
    const workspaceId = (await tracker.workspaces.list()).find((w) => w.isActive)!.id;
    // The fields of GitHub's `pull_request` event the integration reads, signed as GitHub signs.
    const body = JSON.stringify({
      action: "opened",
      number: 7,
      pull_request: {
        number: 7,
        title: "Fix the login form",
        body: `Fixes ${issue.identifier}`,
        html_url: "https://github.com/acme/app/pull/7",
        state: "open",
        draft: false,
        merged: false,
        head: { ref: `${issue.identifier.toLowerCase()}-fix-the-login-form` },
        updated_at: new Date().toISOString(),
      },
      repository: { full_name: "acme/app" },
    });
    const delivered = await fetch(`${server.url}/api/v1/codehost/github/${workspaceId}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-github-event": "pull_request",
        "x-github-delivery": "delivery-1",
        "x-hub-signature-256": `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`,
      },
      body,
    });
    expect(delivered.status).toBeLessThan(300);

    await page.goto(session.at(`/issue/${issue.identifier}`));
    const prs = page.getByRole("region", { name: "Pull requests" });
    await expect.poll(() => prs.getByRole("link").textContent()).toBe("acme/app#7 Fix the login form");
    expect(await prs.getByRole("link").getAttribute("href")).toBe("https://github.com/acme/app/pull/7");
    expect(await prs.textContent()).toContain("closes this issue when merged");
  });
});

// Last: the member signs in on a second page of the same browser, whose storage the admin's page shares.
describe("settings as a member", () => {
  test("a member is not offered the webhooks, and is told by the server they are the admins'", async () => {
    const member = await session.server.addMember(session.token, "member");
    const other = await session.browser.context.newPage();
    await other.goto(session.server.url);
    // The browser remembers the admin's key for this origin: forget it, as signing out would.
    await other.evaluate(() => localStorage.clear());
    // In no team, the member lands on the workspace's home rather than a board.
    await signIn(session, other, { token: member.token, landing: "" });
    await other.goto(session.at("/settings"));
    const nav = other.getByRole("navigation", { name: "Settings" });
    // The role is known once the workspace's screen says the member may not change it.
    await expect
      .poll(() => other.getByText(/Only workspace admins may change the workspace/).count())
      .toBe(1);
    expect(await nav.getByRole("link", { name: "Access" }).count()).toBe(1);
    expect(await nav.getByRole("link", { name: "Webhooks" }).count()).toBe(0);
    await other.goto(session.at("/settings/webhooks"));
    await expect.poll(() => other.getByText(/Only workspace admins may see webhooks/).count()).toBe(1);
    expect(await other.getByLabel("Endpoint URL").count()).toBe(0);
    await other.close();
  });
});
