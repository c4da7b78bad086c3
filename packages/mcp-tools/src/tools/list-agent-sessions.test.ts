import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { ws, call } = useTools();

describe("list_agent_sessions", () => {
  it("lists an issue's sessions and the caller's own, newest first", async () => {
    const res = await call<{ sessions: { issue: string; agent: string }[] }>("list_agent_sessions", {
      identifier: "ENG-4",
    });
    expect(res.isError).toBe(false);
    expect(res.data.sessions).toMatchObject([{ issue: "ENG-4", agent: "triage-bot" }]);
    // Ada opened it, so it is among her own.
    const mine = await call<{ sessions: { issue: string }[] }>("list_agent_sessions");
    expect(mine.data.sessions.map((s) => s.issue)).toContain("ENG-4");
    const none = await call("list_agent_sessions", { identifier: "ENG-1" });
    expect(none.text).toBe("No agent sessions.");
    expect((await call("list_agent_sessions", { identifier: "ENG-999" })).text).toMatch(/^not_found: /);
    expect(ws.sdk).toBeDefined();
  });
});
