import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { call } = useTools();

describe("get_document", () => {
  it("reads a document by its exact title, and says when no document has that title", async () => {
    expect((await call("get_document", { document: "runbook" })).text).toMatch(
      /^Runbook · ENG[\s\S]*# Runbook\n\nRestart the worker\.$/,
    );
    const bad = await call("get_document", { document: "Nothing like it" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/^No document titled "Nothing like it"/);
  });
});
