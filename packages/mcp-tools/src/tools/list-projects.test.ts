import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { call } = useTools();

describe("list_projects", () => {
  it("lists projects with status, health and progress, and names the initiatives for an unknown one", async () => {
    expect((await call("list_projects", { team: ["ENG"], sort: "name" })).text).toMatch(
      /^Launch \[started\] on_track \d+% \(\d+\/\d+\) · lead Ada Lovelace · target \d{4}-\d\d-\d\d · ENG · initiative "Q3 Growth"\n/,
    );
    const bad = await call("list_projects", { initiative: "Nope" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/not_found: No initiative "Nope"[\s\S]*Initiatives: "Q3 Growth"/);
  });
});
