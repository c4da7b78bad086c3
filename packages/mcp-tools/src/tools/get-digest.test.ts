import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { ws, call } = useTools();

describe("get_digest", () => {
  it("tells what others did on my issues since a date, and asks for a date it can read", async () => {
    await ws.as(ws.bob.token).comments.create("ENG-5", { body: "Can you review the checklist copy today?" });
    expect((await call("get_digest", { since: "2020-01-01" })).text).toMatch(
      /ENG-5 bob commented: Can you review the checklist copy today\?/,
    );
    const bad = await call("get_digest", { since: "yesterday" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/Input validation error[\s\S]*since/);
  });
});
