import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createTracker } from "@tracker/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { useSession } from "../../test/binary.js";
import { terminal } from "../../test/terminal.js";

// `tracker browse` and every `--web`: the web board's address, opened in $BROWSER (a script here that
// writes down what it was asked to open), or printed with --no-browser.
const s = useSession();
let browser: string;
let opened: string;
const board = () => `${s.server.url}/${s.workspace.slug}`;
const lastOpened = () => readFileSync(opened, "utf8").trim().split("\n").at(-1);

beforeAll(async () => {
  opened = path.join(s.configHome, "opened.txt");
  browser = path.join(s.configHome, "browser.sh");
  writeFileSync(opened, "");
  writeFileSync(browser, `#!/bin/sh\necho "$1" >> "${opened}"\n`);
  chmodSync(browser, 0o755);
  const sdk = createTracker({ baseUrl: s.server.url, apiKey: s.token, workspace: "" });
  await sdk.issues.create({ team: "ENG", title: "Login fails", labels: ["bug"] });
  await sdk.projects.create({ name: "Launch", teams: ["ENG"] });
});

describe("tracker browse", () => {
  it("opens an issue, a team's board and a project in the browser, from a terminal", async () => {
    const issue = terminal(s, ["browse", "eng-1"], { BROWSER: browser });
    expect(await issue.exited).toBe(0);
    expect(issue.plain()).toContain(`Opening ${board()}/issue/ENG-1 in your browser.`);
    await expect.poll(lastOpened).toBe(`${board()}/issue/ENG-1`);
    expect(await terminal(s, ["browse", "ENG"], { BROWSER: browser }).exited).toBe(0);
    await expect.poll(lastOpened).toBe(`${board()}/team/ENG/board`);
    const project = (await createTracker({ baseUrl: s.server.url, apiKey: s.token }).projects.get("Launch"))
      .id;
    expect(await terminal(s, ["browse", "Launch"], { BROWSER: browser }).exited).toBe(0);
    await expect.poll(lastOpened).toBe(`${board()}/project/${project}`);
  });

  it("prints the address with --no-browser, for scripts", async () => {
    const printed = await s.run(["browse", "projects", "-n"]);
    expect(printed).toMatchObject({ code: 0, stdout: `${board()}/projects\n` });
    expect((await s.run(["browse", "-n"])).stdout).toBe(`${board()}/\n`);
  });
});

describe("tracker issues view --web, issues list --web, projects view --web", () => {
  it("open the issue, the filtered list and the project instead of printing them", async () => {
    expect(await terminal(s, ["issues", "view", "ENG-1", "--web"], { BROWSER: browser }).exited).toBe(0);
    await expect.poll(lastOpened).toBe(`${board()}/issue/ENG-1`);
    const list = terminal(s, ["issues", "list", "--team", "ENG", "--label", "bug", "--web"], {
      BROWSER: browser,
    });
    expect(await list.exited).toBe(0);
    await expect
      .poll(lastOpened)
      .toBe(`${board()}/team/ENG/list?stateType=backlog,unstarted,started&label=bug`);
    expect(await terminal(s, ["projects", "view", "Launch", "--web"], { BROWSER: browser }).exited).toBe(0);
    await expect.poll(lastOpened).toMatch(new RegExp(`^${board()}/project/[0-9a-f-]{36}$`));
  });
});
