import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { call } = useTools();

describe("save_initiative", () => {
  it("creates an initiative, and says what a create needs", async () => {
    expect((await call("save_initiative", { name: "Q4 Retention", status: "planned" })).text).toMatch(
      /^Created Q4 Retention \[planned\]/,
    );
    const bad = await call("save_initiative", {});
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/^To create an initiative give `name`/);
  });
});
