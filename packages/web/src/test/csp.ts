import type { Page } from "playwright-core";

/**
 * What the page's Content-Security-Policy refused from now on: the `securitypolicyviolation` events of the
 * document open now (directive and what was blocked), and every console message about the policy since the
 * watch began, whatever document logged it (Chromium logs each refusal). Empty when the board runs within
 * the policy the server sends (`packages/server/src/http/security-headers.ts`).
 */
export async function watchCsp(page: Page): Promise<{ violations(): Promise<string[]> }> {
  const messages: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) messages.push(message.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) => {
      seen.push(
        `${event.effectiveDirective} refused ${event.blockedURI || "(inline)"} at ${event.sourceFile}:${event.lineNumber}`,
      );
    });
  });
  return {
    async violations() {
      const inPage = await page
        .evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? [])
        .catch(() => []);
      return [...inPage, ...messages];
    },
  };
}
