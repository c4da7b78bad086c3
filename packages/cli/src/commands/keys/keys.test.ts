import { describe, expect, it } from "vitest";
import { json, rows, useSession } from "../../test/binary.js";

// `tracker keys`: the built binary against a real server.
const s = useSession();
const tty = { TRACKER_FORCE_TTY: "1", NO_COLOR: "1", COLUMNS: "100" };

describe("tracker keys create, list and delete", () => {
  it("creates a key that works, lists and revokes it", async () => {
    const created = await s.run(["keys", "create", "--name", "ci"]);
    const token = created.stdout.trim();
    expect(token).toMatch(/^trk_/);
    expect((await s.run(["users", "list"], { env: { TRACKER_API_KEY: token } })).code).toBe(0);
    const id = json<{ id: string; name: string }[]>(await s.run(["keys", "list", "--json"])).find(
      (k) => k.name === "ci",
    )!.id;
    expect(rows(await s.run(["keys", "list"])).map((r) => r.slice(1, 5))).toContainEqual([
      "ci",
      "workspace",
      "admin",
      "",
    ]);
    expect((await s.run(["keys", "delete", id, "--yes"])).stderr).toBe(`Deleted key ${id}\n`);
    const revoked = await s.run(["users", "list"], { env: { TRACKER_API_KEY: token } });
    expect(revoked.code).toBe(4);
    expect(revoked.stderr).toContain("unauthenticated:");
  });

  it("creates a read key that expires, lists both, and the key cannot write", async () => {
    const created = await s.run(
      ["keys", "create", "--name", "reader", "--access", "read", "--expires", "30d"],
      {
        env: tty,
      },
    );
    expect(created.stderr).toMatch(/Created workspace key "reader" with read access, expiring 20\d\d-/);
    const token = created.stdout.trim();
    const listed = json<{ name: string; access: string; expiresAt: string }[]>(
      await s.run(["keys", "list", "--json"]),
    ).find((k) => k.name === "reader")!;
    expect(listed.access).toBe("read");
    const days = (Date.parse(listed.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29);
    expect(days).toBeLessThanOrEqual(30);
    // Thirty days ahead, less the seconds since: a month, or 29 days once a second has passed.
    const table = (await s.run(["keys", "list"], { env: tty })).stdout;
    expect(table).toMatch(/ACCESS\s+EXPIRES/);
    expect(table).toMatch(/reader\s+workspace\s+read\s+in (1 month|29 days)/);

    expect((await s.run(["users", "list"], { env: { TRACKER_API_KEY: token } })).code).toBe(0);
    const write = await s.run(["labels", "create", "nope"], { env: { TRACKER_API_KEY: token } });
    expect(write.code).not.toBe(0);
    expect(write.stderr).toContain("insufficient_access:");
  });

  it("refuses an expiry it cannot read, before asking the server", async () => {
    const res = await s.run(["keys", "create", "--name", "x", "--expires", "soon"]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('invalid value "soon" for --expires');
  });
});
