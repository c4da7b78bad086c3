import { createTracker } from "@tracker/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { useSession } from "../../test/binary.js";
import { terminal } from "../../test/terminal.js";

// `tracker alias`: shortcuts kept in the config file, expanded before the command line is read.
const s = useSession();

beforeAll(async () => {
  const sdk = createTracker({ baseUrl: s.server.url, apiKey: s.token, workspace: "" });
  await sdk.issues.create({ team: "ENG", title: "Crash on save", labels: ["bug"] });
  await sdk.issues.create({ team: "ENG", title: "Add dark mode" });
});

describe("tracker alias set", () => {
  it("makes a word run a command line, with the words typed after it appended or put at $1", async () => {
    const set = terminal(s, ["alias", "set", "bugs", "issues list --label bug"]);
    expect(await set.exited).toBe(0);
    expect(set.plain()).toContain("Added alias bugs: tracker issues list --label bug");
    const bugs = terminal(s, ["bugs"]);
    expect(await bugs.exited).toBe(0);
    expect(bugs.plain()).toContain("Crash on save");
    expect(bugs.plain()).not.toContain("Add dark mode");
    expect(
      await terminal(s, ["alias", "set", "in", "issues list --team $1 --search 'dark mode'"]).exited,
    ).toBe(0);
    const piped = await s.run(["in", "ENG", "--json", "title"]);
    expect(JSON.parse(piped.stdout)).toEqual([{ title: "Add dark mode" }]);
  });

  it("refuses to shadow a command, or to stand for something that is not one", async () => {
    const shadow = terminal(s, ["alias", "set", "issues", "issues list"]);
    expect(await shadow.exited).toBe(2);
    expect(shadow.plain()).toContain('"issues" is already a tracker command');
    const nonsense = terminal(s, ["alias", "set", "x", "rm -rf /"]);
    expect(await nonsense.exited).toBe(2);
    expect(nonsense.plain()).toContain(
      'the expansion must start with a tracker command, e.g. "issues list"; got "rm"',
    );
  });
});

describe("tracker alias list", () => {
  it("lists the aliases as a table on a terminal and as rows when piped", async () => {
    const listed = terminal(s, ["alias", "list"]);
    expect(await listed.exited).toBe(0);
    expect(listed.plain()).toMatch(/ALIAS\s+EXPANSION/);
    expect((await s.run(["alias", "list"])).stdout).toContain("bugs\tissues list --label bug\n");
  });
});

describe("tracker alias delete", () => {
  it("forgets an alias, which then is an unknown command", async () => {
    expect(await terminal(s, ["alias", "delete", "bugs"]).exited).toBe(0);
    const gone = terminal(s, ["bugs"]);
    expect(await gone.exited).toBe(2);
    expect(gone.plain()).toContain('unknown command "bugs"');
  });
});
