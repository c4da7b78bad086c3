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

describe("comment_issue with an attachment, and get_issue listing it", () => {
  it("uploads a small text file, links it in the comment, and get_issue lists and serves it", async () => {
    const log = "2026-11-28T10:00:00Z ERROR payment timed out\n    at charge (pay.ts:42)\n";
    const res = await call<{
      comment: { id: string };
      attachment: { id: string; url: string; size: number };
    }>("comment_issue", {
      identifier: "ENG-1",
      body: "The trace of the failure:",
      file: log,
      fileName: "trace.log",
    });
    expect(res.isError).toBe(false);
    expect(res.text).toContain(`Attached trace.log (${Buffer.byteLength(log)} bytes).`);
    const body = (await ws.sdk.issues.get("ENG-1")).comments.at(-1)!.body;
    expect(body).toMatch(/^The trace of the failure:\n\n\[trace\.log\]\(\/api\/v1\/attachments\/[^)]+\)$/);

    const got = await call<{ issue: { attachments: string[] } }>("get_issue", { identifier: "ENG-1" });
    const listed = got.data.issue.attachments.find((a) => a.startsWith("trace.log "))!;
    expect(listed).toMatch(
      new RegExp(
        `^trace\\.log \\(text/plain; charset=utf-8, ${Buffer.byteLength(log)} bytes\\) (http://\\S+)$`,
      ),
    );
    const url = listed.split(" ").at(-1)!;
    expect(got.text).toMatch(/Attachments:\n {2}trace\.log \(text\/plain; charset=utf-8, \d+ bytes\) http/);
    // The URL is absolute and works without a key, as an agent's fetch tool would use it.
    const download = await fetch(url);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe(log);

    const tooBig = await call("comment_issue", {
      identifier: "ENG-1",
      body: "huge",
      file: "x".repeat(64 * 1024 + 1),
    });
    expect(tooBig.isError).toBe(true);
    expect(tooBig.text).toMatch(/Input validation error[\s\S]*file/);
  });
});
