// The web board's bench: cold load of a team's board, later navigations, and the bundle's gzipped size,
// in Chromium (src/test/chromium.mjs chooses which) against a real server.
// `npm run build && npm run bench -w @tracker/web`.
// Budgets (issue 34): cold board < 600 ms, later navigation < 120 ms, bundle < 250 KB gzipped, and a
// 5,000-issue column that scrolls smoothly (frames while scrolling it; BENCH_BIG=0 skips it).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { inBatches, launch, signedIn, startServer, trackerFor, WEB_ROOT } from "./lib.mjs";

const TEAM = { key: "BEN", name: "Bench" };
const ISSUES = Number(process.env.BENCH_ISSUES ?? 200);
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 5);
const STATES = ["Backlog", "Todo", "In Progress", "In Review", "Done"];
const BIG = { key: "BIG", name: "Big column", issues: Number(process.env.BENCH_BIG ?? 5_000) };

/** A team with one column of BIG.issues issues, made 100 at a time (`POST /issues/batch`). */
async function seedBig(tracker) {
  if (!BIG.issues) return;
  const teams = await tracker.teams.list();
  if (teams.some((t) => t.key === BIG.key)) return;
  await tracker.teams.create({ key: BIG.key, name: BIG.name });
  for (let at = 0; at < BIG.issues; at += 100)
    await tracker.issues.createMany(
      Array.from({ length: Math.min(100, BIG.issues - at) }, (_, n) => ({
        team: BIG.key,
        title: `Big issue ${at + n + 1}: ${["a short title", "a title long enough to wrap onto a second line of the card"][n % 2]}`,
        state: "Todo",
        priority: n % 5,
      })),
    );
}

/**
 * Scrolls the big column from top to bottom as a trackpad does (a step each frame), through every page as
 * it loads, and returns the frame times seen (ms) and the most cards the page held at once.
 */
async function scrollBigColumn(page) {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        const column = document.querySelector('section.column[data-state="Todo"] .column-scroll');
        const frames = [];
        let most = 0;
        let last = performance.now();
        const started = last;
        const step = () => {
          const now = performance.now();
          frames.push(now - last);
          last = now;
          most = Math.max(most, document.querySelectorAll(".board .card").length);
          column.scrollTop += 120;
          const foot = column.querySelector(".column-foot")?.textContent ?? "";
          const atEnd = column.scrollTop + column.clientHeight >= column.scrollHeight - 2;
          if ((atEnd && foot.startsWith("All")) || now - started > 120_000) resolve({ frames, most, foot });
          else requestAnimationFrame(step);
        };
        requestAnimationFrame(step);
      }),
  );
}

function bundleSize() {
  const dist = path.join(WEB_ROOT, "dist");
  const files = [
    "index.html",
    ...readdirSync(path.join(dist, "assets"))
      .filter((f) => /\.(js|css)$/.test(f))
      .map((f) => `assets/${f}`),
  ];
  let raw = 0;
  let gzip = 0;
  for (const file of files) {
    const bytes = readFileSync(path.join(dist, file));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { files: files.length, raw, gzip };
}

async function seed(tracker) {
  const teams = await tracker.teams.list();
  if (teams.some((t) => t.key === TEAM.key)) return;
  await tracker.teams.create(TEAM);
  // A project holding a quarter of the issues, for the project page's navigation.
  const project = await tracker.projects.create({ name: "Bench project", teams: [TEAM.key] });
  await inBatches(
    Array.from({ length: ISSUES }, (_, n) => n),
    8,
    (n) =>
      tracker.issues.create({
        team: TEAM.key,
        title: `Bench issue ${n + 1}: ${["tune the list query", "fix the login form", "write the docs", "ship the export"][n % 4]}`,
        state: STATES[n % STATES.length],
        priority: n % 5,
        ...(n % 4 === 0 ? { project: project.id } : {}),
      }),
  );
}

/** Milliseconds from a click until `waitSelector` is in the page and painted, measured inside the page. */
function timeNavigation(page, clickSelector, waitSelector) {
  return page.evaluate(
    ({ clickSelector, waitSelector }) =>
      new Promise((resolve) => {
        const started = performance.now();
        const done = () => {
          if (!document.querySelector(waitSelector)) return false;
          observer.disconnect();
          // Counted to the frame that shows it, as the cold load is.
          requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - started)));
          return true;
        };
        const observer = new MutationObserver(done);
        observer.observe(document.body, { childList: true, subtree: true });
        document.querySelector(clickSelector).click();
        done();
      }),
    { clickSelector, waitSelector },
  );
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * p)];

async function main() {
  const size = bundleSize();
  const server = await startServer();
  try {
    const tracker = trackerFor(server);
    const workspace = process.env.TRACKER_WORKSPACE ?? (await tracker.workspaces.list())[0].slug;
    await seed(tracker);
    await seedBig(tracker);
    const firstPage = Math.min(200, (await tracker.issues.list({ team: TEAM.key, limit: 200 })).items.length);
    const boardUrl = `${server.url}/${workspace}/team/${TEAM.key}/board`;

    const cold = [];
    let later;
    for (let run = 0; run < COLD_RUNS; run++) {
      const browser = await launch();
      try {
        await signedIn(browser.context, server.apiKey);
        const page = await browser.context.newPage();
        // Noted inside the page once the first page's cards are all there and painted, so the harness's own
        // round trips (polling over the DevTools protocol) are not counted.
        // Every column has its first page in and its cards painted (a column renders the cards in view).
        await page.addInitScript((n) => {
          new MutationObserver((_records, observer) => {
            const columns = document.querySelectorAll(".board section.column").length;
            if (!columns || document.querySelectorAll(".board .column-foot").length < columns) return;
            if (document.querySelectorAll(".board .card").length < Math.min(n, columns)) return;
            observer.disconnect();
            // After the frame that shows them: the next animation frame, then the task after it.
            requestAnimationFrame(() =>
              setTimeout(() => {
                window.__boardShownAt = performance.now();
              }),
            );
          }).observe(document, { childList: true, subtree: true });
        }, firstPage);
        await page.goto(boardUrl, { waitUntil: "commit" });
        await page.waitForFunction(() => window.__boardShownAt !== undefined, null, { timeout: 30_000 });
        // From the start of the navigation (the page's time origin) to every card of the first page shown.
        cold.push(await page.evaluate(() => window.__boardShownAt));
        if (run === COLD_RUNS - 1) {
          // Each navigation three times (other cards each round, so no issue page is cached by an earlier
          // round); the median is reported.
          const boardLink = `.sidebar a[href$="/team/${TEAM.key}/board"]`;
          const card = (n) => `.board section:first-of-type li:nth-child(${n}) .card`;
          const rounds = [];
          for (let round = 0; round < 3; round++) {
            const step = {};
            step["board → list"] = await timeNavigation(
              page,
              '.tabs a[href$="/list"]',
              "table.issues tbody tr",
            );
            step["list → board"] = await timeNavigation(page, '.tabs a[href$="/board"]', ".board .card");
            // The issue's title (known from the board) is shown at once; its page data follows.
            step["board → issue (title shown)"] = await timeNavigation(
              page,
              card(1 + 3 * round),
              ".issue-title",
            );
            step["issue → board (cached)"] = await timeNavigation(page, boardLink, ".board .card");
            step["board → issue (page data loaded)"] = await timeNavigation(
              page,
              card(2 + 3 * round),
              ".title-button",
            );
            await timeNavigation(page, boardLink, ".board .card");
            // As a person does: the pointer rests on a card before the click, and its page data is asked for.
            await page.hover(card(3 + 3 * round));
            await page.waitForTimeout(150);
            step["board → issue (page data, card hovered first)"] = await timeNavigation(
              page,
              card(3 + 3 * round),
              ".title-button",
            );
            await timeNavigation(page, boardLink, ".board .card");
            const projectLink = "table.issues tbody a[href*='/project/']";
            await timeNavigation(page, '.sidebar a[href$="/projects"]', projectLink);
            // The first round fetches the project's page; the later ones show it from the cache.
            step["projects → project (its issues shown)"] = await timeNavigation(
              page,
              projectLink,
              ".detail-page table.issues tbody tr",
            );
            await timeNavigation(page, boardLink, ".board .card");
            rounds.push(step);
          }
          later = Object.fromEntries(
            Object.keys(rounds[0]).map((name) => [name, median(rounds.map((r) => r[name]))]),
          );
        }
      } finally {
        await browser.close();
      }
    }

    let big;
    if (BIG.issues) {
      const browser = await launch();
      try {
        await signedIn(browser.context, server.apiKey);
        const page = await browser.context.newPage();
        await page.goto(`${server.url}/${workspace}/team/${BIG.key}/board`);
        await page.waitForSelector('section.column[data-state="Todo"] .card', { timeout: 30_000 });
        big = await scrollBigColumn(page);
      } finally {
        await browser.close();
      }
    }

    const rows = [
      ["bundle (gzipped)", `${(size.gzip / 1024).toFixed(1)} KB`, "< 250 KB", size.gzip < 250 * 1024],
      [
        `cold board, ${firstPage} issues (median of ${cold.length})`,
        `${median(cold).toFixed(0)} ms`,
        "< 600 ms",
        median(cold) < 600,
      ],
      ["cold load (slowest)", `${Math.max(...cold).toFixed(0)} ms`, "", true],
      ...Object.entries(later).map(([name, ms]) => [
        `later navigation: ${name} (median of 3)`,
        `${ms.toFixed(1)} ms`,
        "< 120 ms",
        ms < 120,
      ]),
      ...(big
        ? [
            [
              `${BIG.issues}-issue column scrolled to its end: frames (median; 95th percentile)`,
              `${median(big.frames).toFixed(1)}; ${percentile(big.frames, 0.95).toFixed(1)} ms`,
              "95th < 50 ms",
              percentile(big.frames, 0.95) < 50,
            ],
            [
              `  cards in the page at most (of ${BIG.issues}); end reached`,
              `${big.most}; ${big.foot}`,
              "",
              true,
            ],
          ]
        : []),
    ];
    const width = Math.max(...rows.map((r) => r[0].length));
    console.log(
      `web board bench: ${server.url}, ${ISSUES} issues in ${TEAM.key}, bundle ${size.files} files (${(size.raw / 1024).toFixed(1)} KB raw)`,
    );
    for (const [name, value, budget, ok] of rows)
      console.log(
        `${name.padEnd(width)}  ${value.padStart(10)}  ${budget.padEnd(10)} ${budget ? (ok ? "ok" : "OVER") : ""}`,
      );
    console.log(
      JSON.stringify({
        bundleGzipBytes: size.gzip,
        coldLoadMs: cold.map(Math.round),
        laterNavigationMs: later,
        ...(big
          ? {
              bigColumn: {
                issues: BIG.issues,
                frames: big.frames.length,
                medianFrameMs: Math.round(median(big.frames) * 10) / 10,
                p95FrameMs: Math.round(percentile(big.frames, 0.95) * 10) / 10,
                mostCards: big.most,
              },
            }
          : {}),
      }),
    );
    if (rows.some((r) => r[2] && !r[3])) process.exitCode = 1;
  } finally {
    await server.stop();
  }
}

await main();
