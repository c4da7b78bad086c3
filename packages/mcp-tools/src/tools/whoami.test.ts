import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { call } = useTools();

describe("whoami", () => {
  it("says whose key it is, with the role, and the workspaces it reaches", async () => {
    expect((await call("whoami", {})).text).toMatch(
      /^You are Ada Lovelace <ada@example\.com>, admin\.\n\* acme/,
    );
    const bad = await call("whoami", { me: true });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/Input validation error/);
  });
});
