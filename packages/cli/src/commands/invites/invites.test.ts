import { createTracker } from "@tracker/sdk";
import { describe, expect, it } from "vitest";
import { useSession } from "../../test/binary.js";
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
