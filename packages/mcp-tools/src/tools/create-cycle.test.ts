import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { ws, call } = useTools();
const daysFromNow = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();

describe("create_cycle", () => {
  it("starts a team's first cycle, and says cycles are off for a team without them", async () => {
    expect((await call("create_cycle", { team: "ENG", name: "Sprint 1" })).text).toMatch(
      /^Started ENG cycle 1 "Sprint 1" .* → .*, it is the team's first cycle\.$/,
    );
    const bad = await call("create_cycle", { team: "OPS" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/conflict: Cycles are disabled for team OPS/);
  });

  it("starts the next cycle now: the running one ends and its unfinished issues move, as the answer says", async () => {
    await ws.sdk.issues.update("ENG-3", { cycle: 1 });
    await ws.sdk.issues.update("ENG-4", { cycle: 1 });
    const next = await call<{ rolledOver: number; previous: { number: number; ended: boolean } }>(
      "create_cycle",
      { team: "ENG", name: "Sprint 2", rollover: true },
    );
    expect(next.text).toMatch(
      /^Ended cycle 1, started ENG cycle 2 "Sprint 2" .* → .*, 2 unfinished issues moved from cycle 1\.$/,
    );
    expect(next.data).toMatchObject({ rolledOver: 2, previous: { number: 1, ended: true } });
    expect((await ws.sdk.issues.get("ENG-3")).cycle?.number).toBe(2);
    const cycles = await ws.sdk.cycles.list("ENG");
    const [two, one] = cycles;
    expect(one!.endsAt).toBe(two!.startsAt);
    expect(two).toMatchObject({ number: 2, isActive: true });

    // Planned ahead, leaving the running cycle whole.
    const planned = await call("create_cycle", { team: "ENG", startsAt: two!.endsAt, rollover: false });
    expect(planned.text).toMatch(/^Created ENG cycle 3 .*, cycle 2 keeps its unfinished issues\.$/);
    expect((await ws.sdk.issues.get("ENG-4")).cycle?.number).toBe(2);
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
    expect(next.text).toMatch(/^Started WEB cycle 2 .*, 1 unfinished issue moved from cycle 1\.$/);
    expect((await ws.sdk.issues.list({ team: "WEB", cycle: 2 })).items.map((i) => i.title)).toEqual([
      "Left over",
    ]);
  });
});
