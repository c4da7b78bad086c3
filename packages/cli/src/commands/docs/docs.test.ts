import { createTracker } from "@tracker/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { json, rows, useSession } from "../../test/binary.js";
import { terminal } from "../../test/terminal.js";

// `tracker docs`: the built binary against a real server.
const s = useSession();

// The issue the documents link to.
beforeAll(async () => {
  await createTracker({ baseUrl: s.server.url, apiKey: s.token, workspace: "" }).issues.create({
    team: "ENG",
    title: "Login fails",
  });
});

describe("tracker docs create, list, view, edit and delete", () => {
  it("writes documents from stdin and files, finds them by title, and deletes them", async () => {
    const created = await s.run(
      [
        "docs",
        "create",
        "--team",
        "ENG",
        "--title",
        "Deploy runbook",
        "--content-file",
        "-",
        "--issue",
        "ENG-1",
      ],
      {
        input: "# Deploy\n\nRun the script.\n",
      },
    );
    expect(created.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    const id = created.stdout.trim();
    expect(rows(await s.run(["docs", "list", "-q", "script"])).map((r) => r.slice(0, 4))).toEqual([
      [id, "Deploy runbook", "ENG", "ENG-1"],
    ]);
    expect((await s.run(["docs", "view", "deploy runbook", "--raw"])).stdout).toBe(
      "# Deploy\n\nRun the script.\n",
    );
    const piped = await s.run(["docs", "view", id]);
    expect(piped.stdout).toContain("title:\tDeploy runbook\n");
    expect(piped.stdout).toContain("--\n# Deploy\n");
    expect(
      (await s.run(["docs", "edit", "Deploy runbook", "--content", "Use the button.", "--issue", "none"]))
        .stdout,
    ).toBe(`${id}\n`);
    expect(json(await s.run(["docs", "view", id, "--json", "content,issues"]))).toEqual({
      content: "Use the button.",
      issues: [],
    });
    const missing = await s.run(["docs", "view", "No such doc"]);
    expect(missing).toMatchObject({ code: 1, stderr: 'no document titled "No such doc"\n' });
    expect((await s.run(["docs", "delete", id, "--yes"])).code).toBe(0);
    expect((await s.run(["docs", "list"])).stdout).toBe("");
  });
});

describe("tracker docs list", () => {
  it("explains its search in whole sentences", async () => {
    const help = terminal(s, ["docs", "list", "--help"]);
    expect(await help.exited).toBe(0);
    expect(help.plain()).toContain('Full-text search: words, "a phrase", -excluded words, a or b');
  });

  it("prints the author's email when piped, as the README promises, and the name on a terminal", async () => {
    await createTracker({ baseUrl: s.server.url, apiKey: s.token, workspace: "" }).documents.create({
      team: "ENG",
      title: "Runbook",
      content: "Restart it.",
    });
    const piped = await s.run(["docs", "list"]);
    expect(rows(piped)[0]?.[4]).toBe(s.user.email);
    const table = terminal(s, ["docs", "list"]);
    expect(await table.exited).toBe(0);
    expect(table.plain()).toContain("Ada Lovelace");
  });
});

describe("tracker docs edit --editor", () => {
  it("opens the content in $EDITOR and saves what was written", async () => {
    const editor = "sed -i 's/Restart it./Restart it, then check the queue./'";
    const run = terminal(s, ["docs", "edit", "Runbook", "--editor"], { EDITOR: editor });
    expect(await run.exited).toBe(0);
    const [doc] = await createTracker({ baseUrl: s.server.url, apiKey: s.token }).documents.list();
    expect(doc?.content).toBe("Restart it, then check the queue.");
  });
});
