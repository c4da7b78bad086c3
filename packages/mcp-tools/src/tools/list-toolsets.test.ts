import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { call } = useTools({ dynamic: true });

describe("list_toolsets", () => {
  it("lists every toolset with its tools and whether it is on", async () => {
    const { text } = await call("list_toolsets", {});
    expect(text).toMatch(/^\[off\] issues: Search, read, create/);
    expect(text).toContain(
      "[off] people: Invite people to the workspace, add them to teams or take them off (invite_member, manage_team_members)",
    );
    expect(text.split("\n").at(-1)).toBe("enable_toolset turns one on.");
  });
});
