import { describe, expect, it } from "vitest";
import { testContract } from "../test/harness.js";
import { OPERATION_RULES } from "./operations.js";
import { RULES } from "./permissions.js";
import { renderPermissions, tableRows } from "./table.js";

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

  it('needs the access levels the contract\'s "Access levels and expiry" lists', () => {
    const levels = tableRows(testContract().operations).map((row) => ({
      operation: `${row.operation.method.toUpperCase()} ${row.operation.path}${row.when ? ` ${row.when}` : ""}`,
      kind: RULES[row.action].kind,
    }));
    // Every GET is a read; nothing else is.
    for (const { operation, kind } of levels)
      expect({ operation, read: kind === "read" }).toEqual({
        operation,
        read: operation.startsWith("GET "),
      });
    expect(levels.filter((l) => l.kind === "admin").map((l) => l.operation)).toEqual([
      "POST /workspaces",
      "PATCH /workspace",
      "PUT /workspace/codehost",
      "DELETE /workspace/codehost",
      "POST /invites",
      "POST /auth/password",
      "DELETE /oauth-grants/{id}",
      "PUT /sso",
      "DELETE /sso",
      "DELETE /invites/{id}",
      "POST /members/{userId}/password-reset",
      "PATCH /members/{userId}",
      "DELETE /members/{userId}",
      "POST /api-keys",
      "POST /api-keys scope=account",
      "DELETE /api-keys/{id}",
      "POST /agents",
      "DELETE /teams/{key}",
      "POST /import/issues",
      "POST /projects/{id}/move",
      "POST /initiatives/{id}/move",
      "PUT /view-defaults scope=workspace",
      "DELETE /view-defaults scope=workspace",
      "POST /webhooks",
      "PATCH /webhooks/{id}",
      "DELETE /webhooks/{id}",
      "POST /webhooks/{id}/deliveries/{deliveryId}/redeliver",
      "POST /dev/reseed",
    ]);
  });

  it("is printed in PERMISSIONS.md as it stands", async () => {
    await expect(renderPermissions(testContract().operations)).toMatchFileSnapshot("../../PERMISSIONS.md");
  });
});
