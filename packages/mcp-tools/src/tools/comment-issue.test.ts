import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { ws, call } = useTools();

describe("comment_issue", () => {
  it("comments as the key's owner, edits that comment, and refuses an empty body", async () => {
    const good = await call<{ comment: { id: string } }>("comment_issue", {
      identifier: "ENG-1",
      body: "Reproduced on Safari 17.",
    });
    expect(good.text).toMatch(/^Commented on ENG-1 as ada@example\.com at .* \(comment [0-9a-f-]{36}\)\.$/);
    const edited = await call("comment_issue", {
      identifier: "ENG-1",
      commentId: good.data.comment.id,
      body: "Reproduced on Safari 17 and 18.",
    });
    expect(edited.isError).toBe(false);
    expect((await ws.sdk.issues.get("ENG-1")).comments.at(-1)?.body).toBe("Reproduced on Safari 17 and 18.");
    const bad = await call("comment_issue", { identifier: "ENG-1", body: "" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/Input validation error[\s\S]*body/);
  });
});
