import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { connectClient, textOf } from "../test/connect.js";
import { useTools } from "../test/tools.js";
import { TOOLSET_NAMES } from "../toolsets.js";

// As over stdio: the agent's files are this machine's.
const { ws, call } = useTools({ toolsets: TOOLSET_NAMES }, { localFiles: true });

// The smallest PNG: one transparent pixel.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

describe("attach_file", () => {
  it("uploads base64 content and answers its URL and Markdown, an image as an image", async () => {
    const res = await call<{ attachment: { url: string; contentType: string }; markdown: string }>(
      "attach_file",
      { identifier: "eng-2", content: PNG.toString("base64"), fileName: "shot.png" },
    );
    expect(res.isError).toBe(false);
    expect(res.text).toMatch(
      /^Attached shot\.png \(image\/png, \d+ bytes\) to ENG-2: http:\/\/127\.0\.0\.1:\d+\//,
    );
    expect(res.data.attachment.contentType).toBe("image/png");
    expect(res.data.markdown).toMatch(/^!\[shot\.png\]\(\S+\)$/);
    const files = await ws.sdk.issues.attachments("ENG-2");
    expect(files.map((f) => f.title)).toContain("shot.png");
    // The URL answered downloads the file.
    const download = await fetch(res.data.attachment.url, {
      headers: { Authorization: `Bearer ${ws.token}` },
    });
    expect(Buffer.from(await download.arrayBuffer())).toEqual(PNG);
  });

  it("uploads a local file by path, and refuses what it cannot read or is missing", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "attach-"));
    const file = path.join(dir, "trace.log");
    await writeFile(file, "line 1\nline 2\n");
    const res = await call("attach_file", { identifier: "ENG-3", path: file });
    expect(res.text).toMatch(
      /^Attached trace\.log \(text\/plain[^,]*, 14 bytes\) to ENG-3: .*\nMarkdown: \[trace\.log\]\(/,
    );
    const missing = await call("attach_file", { identifier: "ENG-3", path: path.join(dir, "nope.log") });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/^Cannot read .*nope\.log/);
    const noName = await call("attach_file", { identifier: "ENG-3", content: "aGk=" });
    expect(noName.text).toMatch(/^`content` needs `fileName`/);
    const unknown = await call("attach_file", { identifier: "ENG-999", content: "aGk=", fileName: "a.txt" });
    expect(unknown.text).toMatch(/^not_found: No issue "ENG-999"/);
  });

  it("never reads a path where the agent is not on this machine (HTTP)", async () => {
    const remote = await connectClient(ws.sdk, { toolsets: ["docs"] });
    const res = await remote.callTool({
      name: "attach_file",
      arguments: { identifier: "ENG-1", path: "/etc/hostname" },
    });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/^`path` works only over stdio; send the file as base64 `content`/);
  });
});
