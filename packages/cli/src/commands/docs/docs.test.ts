import { createTracker } from "@tracker/sdk";
import { describe, expect, it } from "vitest";
import { rows, useSession } from "../../test/binary.js";
import { terminal } from "../../test/terminal.js";

// `tracker docs`: the built binary against a real server.
const s = useSession();

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
