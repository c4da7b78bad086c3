import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { call } = useTools();

describe("list_members", () => {
  it("lists a team's members with their emails, and names the teams for an unknown one", async () => {
    expect((await call("list_members", { team: "ENG" })).text).toMatch(
      /^Ada Lovelace <ada@example\.com> admin \(you\)\n/,
    );
    const bad = await call("list_members", { team: "NOPE" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/not_found[\s\S]*Team keys you can use: ENG, OPS/);
  });
});
