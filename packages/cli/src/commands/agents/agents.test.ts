import { describe, expect, it } from "vitest";
import { json, rows, useSession } from "../../test/binary.js";

// `tracker agents` and `tracker issues delegate`: the built binary against a real server.
const s = useSession();

describe("tracker agents create, list, sessions and issues delegate", () => {
  it("adds an agent, delegates an issue to it, and lists the session it opened", async () => {
    const created = await s.run(["agents", "create", "--name", "triage-bot"]);
    expect(created.code).toBe(0);
    const token = created.stdout.trim();
    expect(token).toMatch(/^trk_/);
    expect(rows(await s.run(["agents", "list"])).map((r) => r.slice(1, 3))).toEqual([
      ["triage-bot", "write"],
    ]);

    const issue = json<{ identifier: string }>(
      await s.run(["issues", "create", "--team", "ENG", "--title", "Crash on save", "--json"]),
    );
    const delegated = await s.run(["issues", "delegate", issue.identifier, "--to", "triage-bot"]);
    expect(delegated.stderr).toBe(`Delegated ${issue.identifier} to triage-bot\n`);
    const viewed = json<{ delegate: { name: string } }>(
      await s.run(["issues", "view", issue.identifier, "--json"]),
    );
    expect(viewed.delegate.name).toBe("triage-bot");

    // The agent sees its own session; a person sees the issue's.
    const mine = json<{ issue: { identifier: string }; state: string; trigger: string }[]>(
      await s.run(["agents", "sessions", "--json"], { env: { TRACKER_API_KEY: token } }),
    );
    expect(mine).toMatchObject([
      { issue: { identifier: issue.identifier }, state: "pending", trigger: "delegated" },
    ]);
    expect(
      rows(await s.run(["agents", "sessions", "--issue", issue.identifier])).map((r) => r.slice(1, 5)),
    ).toEqual([[issue.identifier, "triage-bot", "pending", "delegated"]]);

    const cleared = await s.run(["issues", "delegate", issue.identifier, "--clear"]);
    expect(cleared.stderr).toBe(`${issue.identifier} is delegated to no agent\n`);
    const both = await s.run(["issues", "delegate", issue.identifier]);
    expect(both.code).toBe(2);
  });
});
