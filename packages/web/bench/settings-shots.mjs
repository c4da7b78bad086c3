// The README's pictures of what a team does for itself from the board: Settings' Teams, People, API keys and
// Integrations screens, and a new workspace's first-run screen. Taken by screenshots.mjs with the rest, or
// alone: `npm run screenshots -w @tracker/web -- --settings`.
import path from "node:path";
import { WEB_ROOT } from "./lib.mjs";

/** Writes docs/settings-*.png and docs/first-run.png from `server`'s demo workspace, as its admin. */
export async function settingsScreenshots(server, context, tracker) {
  // The key's active workspace: the one the calls below act in.
  const workspace = (await tracker.workspaces.list()).find((w) => w.isActive).slug;
  const teams = await tracker.teams.listAll();
  if (!teams.some((t) => t.key === "DES")) await tracker.teams.create({ name: "Design", key: "DES" });
  const pending = (await tracker.invites.list()).map((i) => i.email);
  for (const [email, role] of [
    ["grace@example.com", "member"],
    ["linus@example.com", "guest"],
  ])
    if (!pending.includes(email)) await tracker.invites.create({ email, role });
  const keys = (await tracker.apiKeys.list()).map((k) => k.name);
  if (!keys.includes("CI reader")) await tracker.apiKeys.create({ name: "CI reader", access: "read" });

  const page = await context.newPage();
  const shot = async (name, route, ready) => {
    await page.goto(`${server.url}/${workspace}${route}`);
    await page.waitForSelector(ready);
    await page.waitForSelector(".live-live");
    await page.screenshot({ path: path.join(WEB_ROOT, "docs", `${name}.png`) });
  };
  await shot("settings-teams", "/settings/teams", ".team-settings");
  await shot("settings-people", "/settings/people", "ul[aria-label='Pending invites'] li");
  await shot("settings-api-keys", "/settings/api-keys", "table tbody tr");
  // Connected from the page, so the picture shows what an admin copies into GitHub.
  await tracker.workspaces.disconnectCodehost();
  await page.goto(`${server.url}/${workspace}/settings/integrations`);
  await page.getByRole("button", { name: "Connect GitHub", exact: true }).click();
  await page.getByLabel("Payload URL", { exact: true }).waitFor();
  await page.waitForSelector(".live-live");
  await page.screenshot({ path: path.join(WEB_ROOT, "docs", "settings-integrations.png") });

  // A workspace of its own, opened on its first run.
  const fresh = await tracker.workspaces.create({ name: "Northwind" });
  await page.goto(`${server.url}/${fresh.slug}`);
  await page.getByRole("heading", { name: "Create your first team" }).waitFor();
  await page.getByLabel("Team name").fill("Mobile Apps");
  await page.waitForSelector(".live-live");
  await page.screenshot({ path: path.join(WEB_ROOT, "docs", "first-run.png") });
  await page.close();
  // Creating it made it the key's active workspace: the demo one is again.
  await tracker.workspaces.setActive(workspace);
  return ["settings-teams", "settings-people", "settings-api-keys", "settings-integrations", "first-run"];
}
