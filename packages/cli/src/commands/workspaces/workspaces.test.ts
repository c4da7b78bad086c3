import { describe, expect, it } from "vitest";
import { rows, useSession } from "../../test/binary.js";

// `tracker workspaces`: the built binary against a real server.
const s = useSession();
const _tty = { TRACKER_FORCE_TTY: "1", NO_COLOR: "1", COLUMNS: "100" };

describe("tracker workspaces create, use and rename", () => {
  it("creates, uses and renames workspaces, and names the choices when one is needed", async () => {
    expect(
      (await s.run(["workspaces", "create", "--name", "Second Works", "--slug", "second-works"])).stdout,
    ).toBe("second-works\n");
    const listed = rows(await s.run(["workspaces", "list"]));
    expect(listed).toHaveLength(2);
    expect(listed).toContainEqual(["*", "second-works", "Second Works", "admin"]);
    expect(listed).toContainEqual(["", s.workspace.slug, s.workspace.name, "admin"]);
    expect((await s.run(["workspaces", "use", s.workspace.slug])).stderr).toBe(
      `Now using ${s.workspace.name} (${s.workspace.slug})\n`,
    );
    expect((await s.run(["-w", "second-works", "workspaces", "rename", "Second Co"])).code).toBe(0);
    expect((await s.run(["workspaces", "list", "--jq", "[.[].name] | sort | .[]"])).stdout).toBe(
      `Second Co\n${s.workspace.name}\n`,
    );
  });
});
