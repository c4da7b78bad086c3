import { describe, expect, it } from "vitest";
import { json, rows, useSession } from "../../test/binary.js";

// `tracker keys`: the built binary against a real server.
const s = useSession();
const _tty = { TRACKER_FORCE_TTY: "1", NO_COLOR: "1", COLUMNS: "100" };

describe("tracker keys create, list and delete", () => {
  it("creates a key that works, lists and revokes it", async () => {
    const created = await s.run(["keys", "create", "--name", "ci"]);
    const token = created.stdout.trim();
    expect(token).toMatch(/^trk_/);
    expect((await s.run(["users", "list"], { env: { TRACKER_API_KEY: token } })).code).toBe(0);
    const id = json<{ id: string; name: string }[]>(await s.run(["keys", "list", "--json"])).find(
      (k) => k.name === "ci",
    )!.id;
    expect(rows(await s.run(["keys", "list"])).map((r) => r.slice(1, 3))).toContainEqual(["ci", "workspace"]);
    expect((await s.run(["keys", "delete", id, "--yes"])).stderr).toBe(`Deleted key ${id}\n`);
    const revoked = await s.run(["users", "list"], { env: { TRACKER_API_KEY: token } });
    expect(revoked.code).toBe(4);
    expect(revoked.stderr).toContain("unauthenticated:");
  });
});
