import { createTracker, type Tracker } from "@tracker/sdk";
import { startTestServer, type TestServer } from "@tracker/server/testing";
import type { Page, Request } from "playwright-core";
import { vi } from "vitest";
import { type Chromium, ensureWebBuild, launchChromium } from "./browser.js";

/** A real server on a fresh database, a workspace with the team ENG, a Chromium, and the API beside it. */
export interface BoardSession {
  server: TestServer;
  browser: Chromium;
  /** The API as the signed-in person, to arrange data and to check what the board did. */
  tracker: Tracker;
  token: string;
  ws: string;
  page: Page;
  /** The board's address of a path inside the workspace (`/team/ENG/board`). */
  at(path: string): string;
  close(): Promise<void>;
}

export async function openBoardSession(workspaceName: string): Promise<BoardSession> {
  // What a page shows is polled for: generously, since the machine running the tests may be busy.
  vi.setConfig({ expect: { poll: { timeout: 15_000, interval: 50 } } });
  ensureWebBuild();
  const server = await startTestServer();
  const boot = await server.bootstrap({
    workspaceName,
    name: "Ada Lovelace",
    team: { key: "ENG", name: "Engineering" },
  });
  const token = boot.apiKey.token;
  const ws = boot.workspace.slug;
  const tracker = createTracker({ baseUrl: server.url, apiKey: token, workspace: ws });
  const browser = await launchChromium();
  const page = await browser.context.newPage();
  return {
    server,
    browser,
    tracker,
    token,
    ws,
    page,
    at: (path) => `${server.url}/${ws}${path}`,
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}

/**
 * Signs in as automation does: the key typed into the sign-in page, then waits for the page it lands on
 * (the first team's board, for the session's own key). The pages of one browser share its storage, so
 * signing in on one signs them all in as that key.
 */
export async function signIn(
  session: BoardSession,
  page: Page = session.page,
  { token = session.token, landing = "/team/ENG/board" }: { token?: string; landing?: string } = {},
): Promise<void> {
  await page.goto(session.server.url);
  await page.getByText("Use an API key").click();
  await page.getByLabel("API key").fill(token);
  await page.getByRole("button", { name: "Sign in with the key" }).click();
  await page.waitForURL(session.at(landing));
}

/** Records the API requests a page sends from now on, as `METHOD /path?query`. */
export function recordApiRequests(page: Page): { sent: string[]; stop(): void } {
  const sent: string[] = [];
  const onRequest = (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/api/")) sent.push(`${request.method()} ${url.pathname}${url.search}`);
  };
  page.on("request", onRequest);
  return { sent, stop: () => page.off("request", onRequest) };
}

/** A person invited into the session's workspace who joined with a password (no API key of theirs). */
export async function addPasswordUser(
  session: BoardSession,
  name: string,
  role: "admin" | "member" | "guest" = "member",
): Promise<{ email: string; password: string }> {
  const email = `${name.toLowerCase().replace(/\W+/g, ".")}@acme.test`;
  const password = `${name} has a long enough password`;
  const invite = await session.tracker.raw.POST("/invites", { body: { email, role } });
  const token = invite.data!.invite.url.split("/").pop()!;
  const accepted = await createTracker({ baseUrl: session.server.url, maxRetries: 0 }).raw.POST(
    "/invites/accept",
    { body: { token, name, password } },
  );
  if (!accepted.data) throw new Error(`accept failed: ${JSON.stringify(accepted.error)}`);
  return { email, password };
}

/** Signs in on the sign-in page with an email and password (the session cookie), landing in the workspace. */
export async function signInWithPassword(
  session: BoardSession,
  page: Page,
  person: { email: string; password: string },
): Promise<void> {
  await page.goto(session.server.url);
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password", { exact: true }).fill(person.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(new RegExp(`/${session.ws}(/|$)`));
}
