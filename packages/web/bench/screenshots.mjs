// Screenshots of the board, the list, the issue page, the new-issue dialog, the palette, a project page, a
// document and the board and issue page on a phone (390 px) for the README, taken from a development server's demo
// workspace with a little more data made through the SDK: `npm run build && npm run screenshots -w @tracker/web`.
// The settings screens and the first run (settings-shots.mjs) follow; `-- --settings` takes only those.
import path from "node:path";
import { launch, signedIn, startServer, trackerFor, WEB_ROOT } from "./lib.mjs";
import { settingsScreenshots } from "./settings-shots.mjs";

const server = await startServer();
if (process.argv.includes("--settings")) {
  const browser = await launch();
  try {
    await signedIn(browser.context, server.apiKey);
    const names = await settingsScreenshots(server, browser.context, trackerFor(server));
    console.log(`wrote ${path.join(WEB_ROOT, "docs")}: ${names.join(", ")} (.png)`);
  } finally {
    await browser.close();
    await server.stop();
  }
  process.exit(0);
}
try {
  const tracker = trackerFor(server);
  const workspace = (await tracker.workspaces.list())[0].slug;
  const team = (await tracker.teams.list())[0].key;
  const labels = (await tracker.labels.list()).map((l) => l.name.toLowerCase());
  for (const [name, color] of [
    ["bug", "#d73a4a"],
    ["frontend", "#0e8a16"],
  ])
    if (!labels.includes(name)) await tracker.labels.create({ name, color });
  const project = await tracker.projects.create({ name: "Web board", teams: [team] });
  const made = [];
  for (const [title, state, priority, labels] of [
    ["Drag cards between columns", "Done", 2, ["frontend"]],
    ["Keyboard: move a card with Shift+Arrow", "In Review", 2, ["frontend"]],
    ["Live updates from GET /events", "In Progress", 1, []],
    ["Login form loses the key on Safari", "Todo", 1, ["bug", "frontend"]],
    ["Command palette (Ctrl K)", "Todo", 3, ["frontend"]],
    ["Show project health on the projects page", "Backlog", 4, []],
  ]) {
    made.push(
      await tracker.issues.create({
        team,
        title,
        state,
        priority,
        labels,
        project: project.id,
        assignee: "me",
      }),
    );
  }
  const focus = made[3];
  await tracker.issues.update(focus.identifier, {
    description:
      "After signing in on Safari 17 the board asks for the key again on the next visit.\n\n" +
      "**Steps**\n\n1. Sign in with a key\n2. Close the tab\n3. Open the board again\n\n" +
      "Expected: the board opens. Seen: the sign-in form.\n\n" +
      "| Browser | Seen |\n| --- | --- |\n| Safari 17 | yes |\n| Firefox 130 | no |\n\n" +
      "- [x] Reproduce on Safari 17\n- [ ] Check storage partitioning",
    dueDate: "2026-12-04",
  });
  await tracker.issues.create({
    team,
    title: "Reproduce on Safari 17",
    parent: focus.identifier,
    state: "Done",
  });
  await tracker.issues.create({ team, title: "Check storage partitioning", parent: focus.identifier });
  await tracker.issues.addRelation(focus.identifier, { issue: made[2].identifier, type: "related" });
  await tracker.issues.addLink(focus.identifier, {
    url: "https://webkit.org/tracking-prevention/",
    title: "WebKit tracking prevention",
  });
  await tracker.comments.create(focus.identifier, {
    body: "Reproduced: the key is gone after 7 days without a visit.",
  });

  await tracker.updates.create({
    project: project.id,
    title: "Week 2: the board works from a keyboard",
    content: "Cards move with **Shift+Arrow**; live updates are next.",
  });
  const document = await tracker.documents.create({
    team,
    title: "Web board: keyboard map",
    content:
      "# Everywhere\n\n- `c` creates an issue\n- `Ctrl K` opens the palette\n- `j` / `k` move through cards and rows\n\n" +
      "# On a card\n\n- **Shift+←/→** moves it to the previous or next state\n\n> Letters are ignored while typing.",
    issues: [made[1].identifier],
  });

  const browser = await launch();
  try {
    await signedIn(browser.context, server.apiKey);
    const page = await browser.context.newPage();
    await page.goto(`${server.url}/${workspace}/team/${team}/board`);
    await page.waitForSelector(".board .card");
    await page.waitForSelector(".live-live");
    await page.screenshot({ path: path.join(WEB_ROOT, "docs", "board.png") });
    await page.goto(`${server.url}/${workspace}/issue/${focus.identifier}`);
    await page.waitForSelector(".title-button");
    await page.waitForSelector(".comment");
    await page.screenshot({ path: path.join(WEB_ROOT, "docs", "issue.png") });
    await page.keyboard.press("Control+k");
    await page.waitForSelector(".palette-item");
    await page.screenshot({ path: path.join(WEB_ROOT, "docs", "palette.png") });
    await page.keyboard.press("Escape");
    await page.goto(`${server.url}/${workspace}/team/${team}/list?group=status`);
    await page.waitForSelector("tr.group-head");
    await page.screenshot({ path: path.join(WEB_ROOT, "docs", "list.png") });
    await page.locator("main h1").click();
    await page.keyboard.press("c");
    await page.waitForSelector(".create-dialog");
    await page.keyboard.type("Export the board as CSV");
    await page.screenshot({ path: path.join(WEB_ROOT, "docs", "create.png") });
    await page.keyboard.press("Escape");
    await page.goto(`${server.url}/${workspace}/project/${project.id}`);
    await page.waitForSelector("table.issues tbody tr");
    await page.waitForSelector(".update");
    await page.screenshot({ path: path.join(WEB_ROOT, "docs", "project.png") });
    await page.goto(`${server.url}/${workspace}/document/${document.id}`);
    await page.waitForSelector(".document-content");
    await page.screenshot({ path: path.join(WEB_ROOT, "docs", "document.png") });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.url}/${workspace}/team/${team}/board`);
    await page.waitForSelector(".board .card");
    await page.screenshot({ path: path.join(WEB_ROOT, "docs", "phone-board.png") });
    await page.goto(`${server.url}/${workspace}/issue/${focus.identifier}`);
    await page.waitForSelector(".description table");
    await page.screenshot({ path: path.join(WEB_ROOT, "docs", "phone-issue.png") });
    const settings = await settingsScreenshots(server, browser.context, tracker);
    console.log(
      `wrote ${path.join(WEB_ROOT, "docs")}: board, list, issue, create, palette, project, document, phone-board, phone-issue, ${settings.join(", ")} (.png)`,
    );
  } finally {
    await browser.close();
  }
} finally {
  await server.stop();
}
