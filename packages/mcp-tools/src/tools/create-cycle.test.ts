import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { ws, call } = useTools();
const daysFromNow = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();

describe("create_cycle", () => {
  it("starts a team's first cycle, and says cycles are off for a team without them", async () => {
    expect((await call("create_cycle", { team: "ENG", name: "Sprint 1" })).text).toMatch(
      /^Started ENG cycle 1 "Sprint 1" .* → .*; it is the team's first cycle\.$/,
    );
    const bad = await call("create_cycle", { team: "OPS" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/conflict: Cycles are disabled for team OPS/);
  });

  it("leaves a running cycle's issues in it: the next cycle starts when it ends, and the answer says so", async () => {
    await ws.sdk.issues.update("ENG-3", { cycle: 1 });
    await ws.sdk.issues.update("ENG-4", { cycle: 1 });
    const next = await call<{ rolledOver: number; previous: { running: boolean; unfinished: number } }>(
      "create_cycle",
      { team: "ENG", name: "Sprint 2" },
    );
    const [sprint1] = (await ws.sdk.cycles.list("ENG")).filter((c) => c.number === 1);
    const end = sprint1!.endsAt.replace("T", " ").slice(0, 16);
    expect(next.text).toBe(
      `Created ENG cycle 2 "Sprint 2" ${end} → ${next.text.split(" → ")[1]!.split(";")[0]}; cycle 1 runs until ${end} and keeps its 2 unfinished issues (move them with update_issues \`cycle\` once it has ended).`,
    );
    expect(next.data).toMatchObject({ rolledOver: 0, previous: { running: true, unfinished: 2 } });
    expect((await ws.sdk.issues.get("ENG-3")).cycle?.number).toBe(1);

    const refused = await call("create_cycle", { team: "ENG", rollover: true });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/^Cycle 2 runs until .*: its unfinished issues roll over when it ends/);
  });

  it("rolls the unfinished issues of a cycle that has ended into the next", async () => {
    await ws.sdk.teams.create({ key: "WEB", name: "Web", cyclesEnabled: true });
    const ended = await call("create_cycle", {
      team: "WEB",
      startsAt: daysFromNow(-14),
      endsAt: daysFromNow(-1),
    });
    expect(ended.text).toMatch(/^Started WEB cycle 1 /);
    await ws.sdk.issues.create({ team: "WEB", title: "Left over", cycle: 1 });
    await ws.sdk.issues.create({ team: "WEB", title: "Finished", cycle: 1, state: "Done" });
    const next = await call("create_cycle", { team: "WEB" });
    expect(next.text).toMatch(
      /^Started WEB cycle 2 .*; 1 unfinished issues rolled over from cycle 1, which ended \d{4}-\d\d-\d\d \d\d:\d\d\.$/,
    );
    expect((await ws.sdk.issues.list({ team: "WEB", cycle: 2 })).items.map((i) => i.title)).toEqual([
      "Left over",
    ]);
  });
});
