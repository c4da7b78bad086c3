import { createTracker } from "@tracker/sdk";
import { describe, expect, it } from "vitest";
import { rows, useSession } from "../../test/binary.js";
import { terminal } from "../../test/terminal.js";

// `tracker invites`: the built binary against a real server.
const s = useSession();
const sdk = () => createTracker({ baseUrl: s.server.url, apiKey: s.token, workspace: "" });

describe("tracker invites delete", () => {
  it("asks on a terminal, takes --yes like every other delete, and needs it without a terminal", async () => {
    await sdk().invites.create({ email: "sam@acme.test" });
    await sdk().invites.create({ email: "kim@acme.test" });
    const asked = terminal(s, ["invites", "delete", "sam@acme.test"]);
    await asked.answer("Delete the invite for sam@acme.test", "y\r");
    expect(await asked.exited).toBe(0);
    expect(asked.plain()).toContain("Revoked the invite for sam@acme.test");
    const yes = terminal(s, ["invites", "delete", "kim@acme.test", "--yes"]);
    expect(await yes.exited).toBe(0);
    expect((await sdk().invites.list()).map((i) => i.email)).toEqual([]);
    await sdk().invites.create({ email: "lee@acme.test" });
    const piped = await s.run(["invites", "delete", "lee@acme.test"]);
    expect(piped).toMatchObject({ code: 2 });
    expect(piped.stderr).toContain("--yes is required to delete the invite for lee@acme.test");
    expect((await s.run(["invites", "delete", "lee@acme.test", "-y"])).code).toBe(0);
  });
});

describe("tracker invites create and accept", () => {
  it("invites someone, who accepts the link and is logged in by it", async () => {
    const link = (
      await s.run(["invites", "create", "--email", "grace@example.com", "--role", "member"])
    ).stdout.trim();
    expect(link).toMatch(/\/invite\/[^/]+$/);
    expect(rows(await s.run(["invites", "list"])).map((r) => r.slice(0, 2))).toEqual([
      ["grace@example.com", "member"],
    ]);
    const graceHome = `${s.configHome}/grace`;
    const accepted = await s.run(
      ["invites", "accept", link.replace(/^https?:\/\/[^/]+/, s.server.url), "--name", "Grace Hopper"],
      {
        env: { TRACKER_API_KEY: undefined, TRACKER_URL: undefined, XDG_CONFIG_HOME: graceHome },
      },
    );
    expect(accepted.stderr).toBe(
      `Joined ${s.workspace.name} as grace@example.com; logged in to ${s.server.url}.\n`,
    );
    const asGrace = await s.run(["users", "list", "--jq", ".[] | select(.isMe) | .name"], {
      env: { TRACKER_API_KEY: undefined, TRACKER_URL: undefined, XDG_CONFIG_HOME: graceHome },
    });
    expect(asGrace.stdout).toBe("Grace Hopper\n");
    await s.run(["invites", "create", "--email", "linus@example.com"]);
    expect((await s.run(["invites", "delete", "linus@example.com", "--yes"])).stderr).toBe(
      "Revoked the invite for linus@example.com\n",
    );
    expect((await s.run(["invites", "list"])).stdout).toBe("");
  });
});
