import { describe, expect, it } from "vitest";
import { connectClient, textOf } from "../test/connect.js";
import { useTools } from "../test/tools.js";

const { ws, call } = useTools();

describe("delete_issue", () => {
  it("is annotated destructive, deletes an issue for good, and tells a member who did not create it why not", async () => {
    const asBob = await connectClient(ws.as(ws.bob.token), { toolsets: ["admin"], role: "member" });
    const tool = (await asBob.listTools()).tools.find((t) => t.name === "delete_issue")!;
    expect(tool.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    const refused = await asBob.callTool({ name: "delete_issue", arguments: { identifier: "ENG-3" } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(
      /^forbidden: Only the issue's creator or a workspace admin may delete it/,
    );
    expect((await ws.sdk.issues.get("ENG-3")).identifier).toBe("ENG-3");

    const done = await call("delete_issue", { identifier: "eng-3" });
    expect(done.text).toBe("Deleted ENG-3.");
    await expect(ws.sdk.issues.get("ENG-3")).rejects.toMatchObject({ status: 404 });
  });
});
