import { describe, expect, it } from "vitest";
import { connectClient } from "../test/connect.js";
import { useTools } from "../test/tools.js";

const { ws, call } = useTools();

describe("archive_issue", () => {
  it("is annotated neither destructive nor read-only, archives an issue out of search_issues, and restores it", async () => {
    const client = await connectClient(ws.sdk, { toolsets: ["admin"] });
    const tool = (await client.listTools()).tools.find((t) => t.name === "archive_issue")!;
    expect(tool.annotations).toMatchObject({
      destructiveHint: false,
      idempotentHint: true,
      readOnlyHint: false,
    });

    const titles = async () => (await call("search_issues", { team: "ENG", query: "Rate limit docs" })).text;
    expect(await titles()).toContain("ENG-6");
    const archived = await call("archive_issue", { identifier: "eng-6" });
    expect(archived.text).toMatch(/^Archived ENG-6 \(since /);
    expect(archived.data).toMatchObject({ identifier: "ENG-6", archivedAt: expect.stringMatching(/Z$/) });
    expect(await titles()).not.toContain("ENG-6");
    // Twice: the same answer, nothing else changes.
    expect((await call("archive_issue", { identifier: "ENG-6" })).data).toEqual(archived.data);
    expect((await ws.sdk.issues.get("ENG-6")).archivedAt).toBe(archived.data.archivedAt);
    // get_issue says so, and its history names who archived it.
    const read = await call("get_issue", { identifier: "ENG-6", history: true });
    expect(read.text.split("\n")[1]).toMatch(/^ARCHIVED since \d{4}-\d\d-\d\d \d\d:\d\d: hidden from lists/);
    expect(read.text).toMatch(/: archived$/m);

    const restored = await call("archive_issue", { identifier: "ENG-6", archived: false });
    expect(restored.text).toBe("ENG-6 is not archived: it is listed again.");
    expect(await titles()).toContain("ENG-6");
  });
});
