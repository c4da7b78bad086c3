import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { AxeResults, Result } from "axe-core";
import type { Page } from "playwright-core";

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** One problem axe found, as a test failure reads it: the rule, its impact, and where. */
export interface Violation {
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core (injected into the page by the test, never shipped with the board) over what the page
 * shows now, against WCAG 2.1 A and AA and axe's best practices, and returns its serious and critical
 * violations.
 */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  // Evaluated by the browser's devtools protocol rather than added as a `<script>`: the board's
  // Content-Security-Policy refuses inline scripts, as it should.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(() =>
    (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } }).axe.run(
      document,
      {
        runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] },
        resultTypes: ["violations"],
      },
    ),
  );
  return results.violations
    .filter((v: Result) => v.impact === "serious" || v.impact === "critical")
    .map((v: Result) => ({
      rule: v.id,
      impact: v.impact ?? "",
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(" ")),
    }));
}
