import { describe, expect, it } from "vitest";
import { DEFAULT_TIMEOUT_MS } from "../deps.js";
import { connectClient, textOf } from "../test/connect.js";
import { useTools } from "../test/tools.js";
import { TOOLSET_NAMES } from "../toolsets.js";

const { ws, call } = useTools();

describe("post_agent_activity", () => {
  it("lets the session's agent report, a person reply, and a member stop it", async () => {
    const bot = await ws.sdk.agents.create({ name: "fixer" });
    const issue = await ws.sdk.issues.create({ team: "ENG", title: "Flaky login test" });
    await ws.sdk.issues.delegate(issue.identifier, "fixer");
    const agent = await connectClient(ws.as(bot.token), { toolsets: TOOLSET_NAMES }, DEFAULT_TIMEOUT_MS);
    const agentCall = async (args: Record<string, unknown>) =>
      textOf(await agent.callTool({ name: "post_agent_activity", arguments: args }));

    expect(await agentCall({ identifier: issue.identifier, kind: "thought", body: "Reproducing" })).toMatch(
      new RegExp(`^Posted thought to @fixer on ${issue.identifier} \\(session .*, now active\\)\\.$`),
    );
    expect(
      await agentCall({
        identifier: issue.identifier,
        kind: "action",
        body: "Ran the test 20 times",
        action: { name: "run_tests", parameter: "login.test.ts", result: "3 failures" },
      }),
    ).toMatch(/now active/);
    expect(
      await agentCall({ identifier: issue.identifier, kind: "elicitation", body: "Retry or fix?" }),
    ).toMatch(/now awaiting_input/);
    const reply = await call<{ session: { id: string; state: string } }>("post_agent_activity", {
      identifier: issue.identifier,
      kind: "prompt",
      body: "Fix it",
    });
    expect(reply.data.session.state).toBe("pending");
    const stopped = await call("post_agent_activity", { session: reply.data.session.id, kind: "stop" });
    expect(stopped.text).toMatch(/^Stopped @fixer .* now stopped\)\.$/);
    const late = await agentCall({ session: reply.data.session.id, kind: "response", body: "Done" });
    expect(late).toMatch(/^conflict: /);

    const read = await call<{ activities: { kind: string }[] }>("list_agent_sessions", {
      session: reply.data.session.id,
    });
    expect(read.data.activities.map((a) => a.kind)).toEqual([
      "thought",
      "action",
      "elicitation",
      "prompt",
      "stop",
    ]);
    expect(read.text).toMatch(/action by fixer: Ran the test 20 times/);
    await agent.close();
  });

  it("says what to name when there is no session", async () => {
    const res = await call("post_agent_activity", { identifier: "ENG-1", kind: "prompt", body: "Hi" });
    expect(res.isError).toBe(true);
    expect(res.text).toMatch(/No agent session on ENG-1; delegate it to an agent first/);
  });
});
