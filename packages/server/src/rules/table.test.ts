import { describe, expect, it } from "vitest";
import { testContract } from "../test/harness.js";
import { OPERATION_RULES } from "./operations.js";
import { RULES } from "./permissions.js";
import { renderPermissions } from "./table.js";

describe("the role × action table", () => {
  it("names an action for every operation of the contract, and for nothing else", () => {
    const contractIds = testContract()
      .operations.map((op) => op.operationId)
      .sort();
    expect(Object.keys(OPERATION_RULES).sort()).toEqual(contractIds);
  });

  it("uses every action it defines", () => {
    const used = new Set(
      Object.values(OPERATION_RULES).flatMap((r) => [r.action, ...(r.variant ? [r.variant.action] : [])]),
    );
    // Asked by a service of another workspace than the request's: moving into it.
    used.add("workspace.moveInto");
    expect(Object.keys(RULES).filter((a) => !used.has(a as keyof typeof RULES))).toEqual([]);
  });

  it("is printed in PERMISSIONS.md as it stands", async () => {
    await expect(renderPermissions(testContract().operations)).toMatchFileSnapshot("../../PERMISSIONS.md");
  });
});
