import { createHmac } from "node:crypto";
import { startTestIdp } from "@tracker/server/testing";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { type Chromium, launchChromium } from "./test/browser.js";
import {
  addPasswordUser,
  type BoardSession,
  openBoardSession,
  signIn,
  signInWithPassword,
} from "./test/session.js";
import { accessibleAtBothWidths, axePage } from "./test/widths.js";

// Settings' administration screens in real Chromium against a real server: Integrations (GitHub and single
// sign-on), the Workspace screen (switching, a new workspace), and a team's key, cycle length and deletion;
// as an admin and as a member (the admins' screens not offered), axe at 1280 and 390 px.

// The OpenID provider below runs on this machine, which the server reaches only when told to.
vi.stubEnv("TRACKER_OUTBOUND_ALLOW_PRIVATE", "1");

let session: BoardSession;
let page: Page;
let member: Chromium | undefined;
let memberPage: Page;

beforeAll(async () => {
  vi.setConfig({ testTimeout: 60_000 });
  session = await openBoardSession("Acme Admin");
  page = await axePage(session.browser);
  await session.browser.context.grantPermissions(["clipboard-read", "clipboard-write"], {
    origin: session.server.url,
  });
  await signIn(session, page);
}, 120_000);

afterAll(async () => {
  await member?.close();
  await session?.close();
  vi.unstubAllEnvs();
});

describe("settings: integrations", () => {
  test("an admin connects GitHub, reads the payload URL and secret once, and disconnects", async () => {
    await page.goto(session.at("/settings"));
    await page
      .getByRole("navigation", { name: "Settings" })
      .getByRole("link", { name: "Integrations" })
      .click();
    await page.waitForURL(session.at("/settings/integrations"));
    const github = page.getByRole("region", { name: "GitHub" });
    await expect.poll(() => github.getByText("Not connected.").count()).toBe(1);
    await accessibleAtBothWidths(page, () =>
      github.getByRole("button", { name: "Connect GitHub" }).waitFor(),
    );

    await github.getByRole("button", { name: "Connect GitHub" }).click();
    const url = github.getByLabel("Payload URL", { exact: true });
    await expect.poll(() => url.count()).toBe(1);
    const payloadUrl = await url.inputValue();
    expect(payloadUrl).toMatch(new RegExp(`^${session.server.url}/api/v1/codehost/github/[0-9a-f-]+$`));
    const secret = await github.getByLabel("Secret", { exact: true }).inputValue();
    expect(secret.length).toBeGreaterThanOrEqual(16);
    await github.getByRole("button", { name: "Copy secret" }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    expect(await github.getByText(/content type application\/json/).count()).toBe(1);
    await expect.poll(() => github.getByText(/^Events taken: .*pull_request/).count()).toBe(1);
    await accessibleAtBothWidths(page, () => url.waitFor());

    // What GitHub would send, signed with the secret shown, is taken at the URL shown.
    const body = JSON.stringify({ zen: "Keep it logically awesome.", hook_id: 1 });
    const signature = `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
    const delivered = await fetch(payloadUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-github-event": "ping",
        "x-github-delivery": "d-1",
        "x-hub-signature-256": signature,
      },
      body,
    });
    expect(delivered.status).toBe(200);

    // Shown once: after a reload the screen says it is connected, and the secret is gone.
    await page.reload();
    await expect.poll(() => github.getByText("Connected", { exact: true }).count()).toBe(1);
    expect(await github.getByLabel("Secret", { exact: true }).count()).toBe(0);
    expect(await page.getByText(secret).count()).toBe(0);

    page.once("dialog", (dialog) => void dialog.accept());
    await github.getByRole("button", { name: "Disconnect GitHub" }).click();
    await expect.poll(() => github.getByText("Not connected.").count()).toBe(1);
    expect((await session.tracker.workspaces.codehost()).configured).toBe(false);
    const refused = await fetch(payloadUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-github-event": "ping",
        "x-hub-signature-256": signature,
      },
      body,
    });
    expect(refused.status).toBe(401);
  });

  test("an admin sets up single sign-on, tests the sign-in in a new tab, keeps the secret, and removes it", async () => {
    const { server, tracker, ws } = session;
    const idp = await startTestIdp({
      redirectUris: [`${server.url}/auth/sso/callback`],
      accounts: { linus: { email: "linus@acme.test", email_verified: true, name: "Linus Torvalds" } },
    });
    try {
      await page.goto(session.at("/settings/integrations"));
      const sso = page.getByRole("form", { name: "Single sign-on" });
      await expect.poll(() => sso.getByText("Not set up.").count()).toBe(1);
      expect(await page.getByLabel("Redirect URI", { exact: true }).inputValue()).toBe(
        `${server.url}/auth/sso/callback`,
      );
      await sso.getByLabel("Issuer").fill(idp.issuer);
      await sso.getByLabel("Client ID").fill(idp.clientId);
      await sso.getByLabel("Client secret").fill(idp.clientSecret);
      await sso.getByLabel("Allowed e-mail domains").fill("Acme.test, @example.org");
      await expect
        .poll(() => sso.getByText(/Anyone with a verified address at acme\.test, example\.org joins/).count())
        .toBe(1);
      await sso.getByRole("button", { name: "Save single sign-on" }).click();
      await expect
        .poll(
          async () =>
            (await sso.getByRole("alert").allTextContents()).join() || sso.getByText(/Saved \d/).count(),
        )
        .toBe(1);
      const saved = await tracker.raw.GET("/sso");
      expect(saved.data?.sso).toMatchObject({
        issuer: idp.issuer,
        clientId: idp.clientId,
        allowedDomains: ["acme.test", "example.org"],
        enabled: true,
      });
      // Write-only: the secret is never put back into the form.
      expect(await sso.getByLabel("Client secret").inputValue()).toBe("");
      await accessibleAtBothWidths(page, () => sso.getByRole("link", { name: "Test sign-in" }).waitFor());

      // The test opens the workspace's sign-in in a new tab: the provider's own page.
      const link = sso.getByRole("link", { name: "Test sign-in" });
      expect(await link.getAttribute("target")).toBe("_blank");
      const [tab] = await Promise.all([page.context().waitForEvent("page"), link.click()]);
      await tab.waitForURL((u) => u.href.startsWith(`${idp.issuer}/interaction/`));
      await tab.close();

      // Saved again without a secret: the one saved is kept, and the provider still signs people in.
      await sso.getByLabel("Allowed e-mail domains").fill("acme.test");
      await sso.getByRole("button", { name: "Save single sign-on" }).click();
      await expect
        .poll(async () => (await tracker.raw.GET("/sso")).data?.sso?.allowedDomains)
        .toEqual(["acme.test"]);
      const other = await launchChromium();
      try {
        const p = await other.context.newPage();
        await p.goto(`${server.url}/auth/sso/${ws}`);
        await p.waitForURL((u) => u.href.startsWith(`${idp.issuer}/interaction/`));
        await p.locator('input[name="login"]').fill("linus");
        await p.locator('input[name="password"]').fill("anything");
        await p.getByRole("button", { name: "Sign-in" }).click();
        await p.getByRole("button", { name: "Continue" }).click();
        await p.waitForURL(new RegExp(`^${server.url}/${ws}(/|$)`));
      } finally {
        await other.close();
      }

      page.once("dialog", (dialog) => void dialog.accept());
      await sso.getByRole("button", { name: "Remove single sign-on" }).click();
      await expect.poll(() => sso.getByText("Not set up.").count()).toBe(1);
      expect((await tracker.raw.GET("/sso")).data?.sso).toBeNull();
    } finally {
      await idp.close();
    }
  });
});

describe("settings: workspace", () => {
  test("the address is shown read-only; a new workspace opens on its first run; switching goes back", async () => {
    const { tracker, ws, server } = session;
    await page.goto(session.at("/settings/workspace"));
    await expect.poll(() => page.getByText(`/${ws}`, { exact: true }).count()).toBe(1);
    expect(await page.getByText(/stays as it is so links and keys keep working/).count()).toBe(1);
    await accessibleAtBothWidths(page, () => page.getByLabel("New workspace's name").waitFor());

    await page.getByLabel("New workspace's name").fill("Acme Labs");
    await page.getByRole("button", { name: "Create workspace" }).click();
    await page.waitForURL(`${server.url}/acme-labs`);
    await expect.poll(() => page.getByRole("heading", { name: "Create your first team" }).count()).toBe(1);
    const labs = (await tracker.workspaces.list()).find((w) => w.slug === "acme-labs");
    expect(labs).toMatchObject({ name: "Acme Labs", role: "admin", isActive: true });

    await page.goto(`${server.url}/acme-labs/settings/workspace`);
    const list = page.getByRole("list", { name: "Workspaces" });
    await expect.poll(() => list.getByRole("listitem").count()).toBe(2);
    await accessibleAtBothWidths(page, () => list.waitFor());
    await list.getByRole("button", { name: "Switch to Acme Admin" }).click();
    await page.waitForURL(new RegExp(`/${ws}(/|$)`));
    await expect.poll(() => page.locator(".board .column").count()).toBeGreaterThan(0);
    expect((await tracker.workspaces.list()).find((w) => w.isActive)?.slug).toBe(ws);
  });
});

describe("settings: a team's key, cycles and deletion", () => {
  test("an admin changes a team's key and cycle length; the old identifiers still open its issues", async () => {
    const { tracker } = session;
    await tracker.teams.create({ name: "Operations", key: "OPS", cyclesEnabled: true });
    for (const title of ["Rotate the keys", "Renew the certificate", "Patch the hosts"])
      await tracker.issues.create({ team: "OPS", title });
    await page.goto(session.at("/settings/teams"));
    const ops = page.getByRole("form", { name: "Operations (OPS)" });
    await expect.poll(() => ops.count()).toBe(1);
    await ops.getByLabel("Key of OPS").fill("opx");
    expect(await ops.getByLabel("Key of OPS").inputValue()).toBe("OPX");
    expect(await page.getByText(/OPS-12 becomes OPX-12/).count()).toBe(1);
    await ops.getByLabel("Cycle length").selectOption("3");
    await ops.getByRole("button", { name: "Save OPS" }).click();
    await expect
      .poll(async () => (await tracker.teams.list()).find((t) => t.name === "Operations")?.key)
      .toBe("OPX");
    expect(await tracker.teams.get("OPX")).toMatchObject({ cyclesEnabled: true, cycleLengthWeeks: 3 });
    expect((await tracker.issues.get("OPS-2")).identifier).toBe("OPX-2");
    await page.goto(session.at("/issue/OPS-1"));
    await page.waitForURL(session.at("/issue/OPX-1"));
  });

  test("an admin deletes a team by typing its key, told how many issues go, its projects deleted too", async () => {
    const { tracker } = session;
    const own = await tracker.projects.create({ name: "Datacenter move", teams: ["OPX"] });
    const shared = await tracker.projects.create({ name: "Shared launch", teams: ["OPX", "ENG"] });
    await page.goto(session.at("/settings/teams"));
    const item = page.getByRole("listitem", { name: "Operations settings" });
    await item.getByRole("button", { name: "Delete OPX…" }).click();
    const confirm = page.getByRole("form", { name: "Delete Operations" });
    await expect.poll(() => confirm.getByText("Operations goes with its 3 issues").count()).toBe(1);
    await confirm.getByLabel("Delete them too").check();
    const go = confirm.getByRole("button", { name: "Delete OPX and its issues" });
    expect(await go.isDisabled()).toBe(true);
    await confirm.getByLabel("Type OPX to confirm").fill("OPS");
    expect(await go.isDisabled()).toBe(true);
    await accessibleAtBothWidths(page, () => go.waitFor());
    await confirm.getByLabel("Type OPX to confirm").fill("opx");
    await go.click();
    await expect
      .poll(() => page.getByText(/Operations \(OPX\) is deleted, with its issues; 1 project deleted/).count())
      .toBe(1);
    expect((await tracker.teams.listAll()).map((t) => t.key)).not.toContain("OPX");
    const projects = (await tracker.projects.list()).items.map((p) => p.id);
    expect(projects).not.toContain(own.id);
    expect(projects).toContain(shared.id);
    await expect.poll(() => item.count()).toBe(0);
  });
});

describe("settings as a member", () => {
  test("a member is offered neither Integrations nor a team's settings; opened by address, it says so", async () => {
    const grace = await addPasswordUser(session, "Grace Hopper");
    member = await launchChromium();
    memberPage = await axePage(member);
    await signInWithPassword(session, memberPage, grace);
    await memberPage.goto(session.at("/settings/workspace"));
    const nav = memberPage.getByRole("navigation", { name: "Settings" });
    await expect.poll(() => nav.getByRole("link").count()).toBeGreaterThan(0);
    const links = await nav.getByRole("link").allTextContents();
    expect(links).not.toContain("Integrations");
    expect(links).not.toContain("People");
    expect(links).not.toContain("Webhooks");
    await expect
      .poll(() => memberPage.getByText(/Only workspace admins may change the workspace/).count())
      .toBe(1);
    await accessibleAtBothWidths(memberPage, () => memberPage.getByLabel("New workspace's name").waitFor());

    await memberPage.goto(session.at("/settings/integrations"));
    await expect
      .poll(() =>
        memberPage.getByText("Only workspace admins manage integrations and single sign-on.").count(),
      )
      .toBe(1);
    await expect.poll(() => memberPage.getByText("Not connected.").count()).toBe(1);
    expect(await memberPage.getByRole("button", { name: "Connect GitHub" }).count()).toBe(0);
    expect(await memberPage.getByLabel("Issuer").count()).toBe(0);
    await accessibleAtBothWidths(memberPage, () => memberPage.getByText("Not connected.").waitFor());

    await memberPage.goto(session.at("/settings/teams"));
    await expect.poll(() => memberPage.getByRole("list", { name: "Teams" }).count()).toBe(1);
    expect(await memberPage.getByRole("button", { name: /^Delete / }).count()).toBe(0);
    expect(await memberPage.getByLabel(/^Key of /).count()).toBe(0);
  });
});
