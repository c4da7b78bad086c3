import { png } from "@tracker/server/testing";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchChromium } from "./test/browser.js";
import {
  addPasswordUser,
  type BoardSession,
  openBoardSession,
  signIn,
  signInWithPassword,
} from "./test/session.js";

// Pasting and dropping images into an issue's comment and description, in a real Chromium against a
// real server: the file is uploaded, its Markdown inserted, and the image shows once saved.
let session: BoardSession;
let page: Page;

beforeAll(async () => {
  session = await openBoardSession("Acme Files");
  await session.tracker.issues.create({ team: "ENG", title: "The chart is cut off" });
  await signIn(session);
  page = session.page;
}, 120_000);

afterAll(async () => {
  await session?.close();
});

/** Fires a real `paste` (or `drop`) event carrying a PNG file at the element, as the browser does. */
async function sendImage(
  selector: string,
  kind: "paste" | "drop",
  name: string,
  width: number,
  height: number,
  on: Page = page,
) {
  await on.locator(selector).focus();
  await on.evaluate(
    ({ selector, kind, name, b64 }) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], name, { type: "image/png" }));
      const target = document.querySelector(selector)!;
      const event =
        kind === "paste"
          ? new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true })
          : new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true });
      target.dispatchEvent(event);
    },
    { selector, kind, name, b64: png(width, height).toString("base64") },
  );
}

/** The natural size of the loaded image whose alt text is `alt` inside `scope`: 0×0 until it has loaded. */
const imageSize = (scope: string, alt: string, on: Page = page) =>
  on.evaluate(
    ({ scope, alt }) => {
      const img = Array.from(document.querySelectorAll<HTMLImageElement>(`${scope} img`)).find(
        (i) => i.alt === alt,
      );
      return img?.complete ? `${img.naturalWidth}x${img.naturalHeight}` : "none";
    },
    { scope, alt },
  );

describe("attachments on the issue page", () => {
  test("pasting an image into a comment uploads it, inserts its Markdown, and shows it rendered", async () => {
    await page.goto(session.at("/issue/ENG-1"));
    await page.locator("#new-comment").fill("See the screenshot:");
    await sendImage("#new-comment", "paste", "chart.png", 48, 30);
    await expect
      .poll(() => page.locator("#new-comment").inputValue())
      .toMatch(/^See the screenshot:\n!\[chart\.png\]\(\/api\/v1\/attachments\/[^)]+\)\n$/);
    await page.getByRole("button", { name: "Comment", exact: true }).click();
    await expect.poll(() => imageSize(".comments", "chart.png")).toBe("48x30");
    // The issue lists the file, with a thumbnail that loaded too.
    await expect.poll(() => page.locator(".attachments li").first().textContent()).toContain("chart.png");
    await expect.poll(() => imageSize(".attachments", "chart.png")).toBe("48x30");
    const comment = (await session.tracker.issues.get("ENG-1")).comments.at(-1)!;
    expect(comment.body).toContain("![chart.png](/api/v1/attachments/");
  });

  test("dropping an image into the description does the same", async () => {
    await page.goto(session.at("/issue/ENG-1"));
    await page.getByRole("button", { name: "Edit description" }).click();
    await sendImage("#description-input", "drop", "layout.png", 20, 64);
    await expect.poll(() => page.locator("#description-input").inputValue()).toMatch(/^!\[layout\.png\]\(/);
    await page.getByRole("button", { name: "Save description" }).click();
    await expect.poll(() => imageSize(".description", "layout.png")).toBe("20x64");
    const media = await session.tracker.issues.attachments("ENG-1");
    expect(media.map((m) => [m.title, m.metadata.width, m.metadata.height])).toEqual([
      ["chart.png", 48, 30],
      ["layout.png", 20, 64],
    ]);
  });

  test("a screenshot enlarges on click, in a dialog that Esc closes", async () => {
    // Taller than the 240 px a screenshot takes in the page.
    await session.tracker.issues.attach("ENG-1", png(300, 600), { filename: "tall.png" });
    await page.goto(session.at("/issue/ENG-1"));
    await expect.poll(() => imageSize(".attachments", "tall.png")).toBe("300x600");
    const inPage = await page.locator(".attachments img[alt='tall.png']").boundingBox();
    expect(inPage!.height).toBeLessThanOrEqual(240);
    await page.locator(".attachments").getByRole("button", { name: "Enlarge tall.png" }).click();
    const dialog = page.getByRole("dialog", { name: "tall.png" });
    await expect.poll(() => imageSize('[role="dialog"]', "tall.png")).toBe("300x600");
    const enlarged = await dialog.locator("img").boundingBox();
    expect(enlarged!.height).toBeGreaterThan(inPage!.height * 1.5);
    await page.keyboard.press("Escape");
    await expect.poll(() => dialog.count()).toBe(0);
  });

  test("a large file shows a progress bar while it uploads, gone once it is in", async () => {
    await page.goto(session.at("/issue/ENG-1"));
    await page.getByRole("button", { name: "Edit description" }).click();
    const bytes = 16 * 1024 * 1024;
    // Every value the page's progress bars show, as they change.
    await page.evaluate(() => {
      const seen: { label: string | null; value: number; max: number }[] = [];
      (window as unknown as { seen: typeof seen }).seen = seen;
      const record = () => {
        for (const bar of Array.from(document.querySelectorAll("progress")))
          seen.push({ label: bar.getAttribute("aria-label"), value: bar.value, max: bar.max });
      };
      new MutationObserver(record).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
      });
    });
    await page.locator("#description-input").focus();
    await page.evaluate((size) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(size).fill(7)], "capture.bin"));
      const target = document.querySelector("#description-input")!;
      target.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
    }, bytes);
    await expect
      .poll(() => page.locator("#description-input").inputValue(), { timeout: 30_000 })
      .toMatch(/\[capture\.bin\]\(\/api\/v1\/attachments\//);
    const seen = await page.evaluate(
      () => (window as unknown as { seen: { label: string; value: number; max: number }[] }).seen,
    );
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen.map((s) => s.label))).toEqual(new Set(["Uploading capture.bin"]));
    expect(seen.every((s) => s.max === bytes)).toBe(true);
    // It moved, and reached the whole file.
    expect(Math.max(...seen.map((s) => s.value))).toBe(bytes);
    expect(new Set(seen.map((s) => s.value)).size).toBeGreaterThan(1);
    expect(await page.locator("progress").count()).toBe(0);
    await page.getByRole("button", { name: "Cancel" }).click();
  });

  test("an image whose link in the text has expired still shows: the page gives it a fresh one", async () => {
    const [chart] = await session.tracker.issues.attachments("ENG-1");
    const stale = chart!.url.replace(/expires=\d+/, "expires=1");
    await session.tracker.comments.create("ENG-1", { body: `Old screenshot: ![old chart](${stale})` });
    // The written link itself no longer opens the file.
    expect((await fetch(new URL(stale, session.server.url))).status).toBe(404);
    await page.goto(session.at("/issue/ENG-1"));
    await expect.poll(() => imageSize(".comments", "old chart")).toBe("48x30");
  });
});

describe("attachments from a person signed in with a password", () => {
  test("pasting into a comment and dropping into the description upload with the session cookie", async () => {
    const ada = await addPasswordUser(session, "Ada Byron");
    await session.tracker.issues.create({ team: "ENG", title: "The legend overlaps" });
    // A browser of their own, signed in by the cookie alone: uploads go by XMLHttpRequest (for their
    // progress), past the SDK's fetch, and must still carry the session's CSRF header.
    const browser = await launchChromium();
    try {
      const own = await browser.context.newPage();
      await signInWithPassword(session, own, ada);
      await own.goto(session.at("/issue/ENG-2"));
      await own.locator("#new-comment").fill("Pasted:");
      await sendImage("#new-comment", "paste", "legend.png", 40, 24, own);
      await expect
        .poll(() => own.locator("#new-comment").inputValue())
        .toMatch(/^Pasted:\n!\[legend\.png\]\(\/api\/v1\/attachments\/[^)]+\)\n$/);
      await own.getByRole("button", { name: "Comment", exact: true }).click();
      await expect.poll(() => imageSize(".comments", "legend.png", own)).toBe("40x24");

      await own.getByRole("button", { name: "Edit description" }).click();
      await sendImage("#description-input", "drop", "axis.png", 16, 36, own);
      await expect.poll(() => own.locator("#description-input").inputValue()).toMatch(/^!\[axis\.png\]\(/);
      await own.getByRole("button", { name: "Save description" }).click();
      await expect.poll(() => imageSize(".description", "axis.png", own)).toBe("16x36");
      const media = await session.tracker.issues.attachments("ENG-2");
      expect(media.map((m) => [m.title, m.metadata.width, m.metadata.height])).toEqual([
        ["legend.png", 40, 24],
        ["axis.png", 16, 36],
      ]);
    } finally {
      await browser.close();
    }
  });
});
