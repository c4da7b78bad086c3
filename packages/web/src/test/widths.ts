import type { Page } from "playwright-core";
import { expect } from "vitest";
import { seriousViolations } from "./axe.js";
import type { Chromium } from "./browser.js";

/**
 * A new page of `browser` that axe can run in whatever the board's Content-Security-Policy says
 * (`script-src 'self'`): the policy is bypassed for this page only, through Chromium's DevTools protocol.
 */
export async function axePage(browser: Chromium): Promise<Page> {
  const page = await browser.context.newPage();
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send("Page.setBypassCSP", { enabled: true });
  page.setDefaultTimeout(10_000);
  return page;
}

/**
 * At a desktop's width (1280 px) and a phone's (390 px): once `ready` resolves, nothing is wider than the
 * window (the page never scrolls sideways) and axe finds no serious or critical violation. Back at 1280 after.
 */
export async function accessibleAtBothWidths(page: Page, ready: () => Promise<unknown>): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await ready();
    const wide = await page.evaluate(() => {
      const over = [...document.querySelectorAll("body *")].filter(
        (el) =>
          el.getBoundingClientRect().right > window.innerWidth + 1 && !el.closest(".table-scroll, .sr-only"),
      );
      return over.map((el) => `${el.tagName}.${el.className}`).slice(0, 5);
    });
    expect({ width, wide }).toEqual({ width, wide: [] });
    expect({ width, violations: await seriousViolations(page) }).toEqual({ width, violations: [] });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}
