import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { call } = useTools();

describe("search_documents", () => {
  it("finds documents by their words, and names the teams for an unknown one", async () => {
    expect((await call("search_documents", { query: "runbook" })).text).toMatch(
      /^Runbook · ENG · updated .* · ENG-1 · id [0-9a-f-]{36}\n\(1 document, no more\)$/,
    );
    const bad = await call("search_documents", { team: "NOPE" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/not_found[\s\S]*Team keys you can use: ENG, OPS/);
  });
});
