import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTracker } from "@tracker/sdk";
import { png } from "@tracker/server/testing";
import { describe, expect, it } from "vitest";
import { useSession } from "../../test/binary.js";
import { terminal } from "../../test/terminal.js";

// `tracker issues attach` and the attachments of `tracker issues view`: the built binary against a real
// server, at a terminal and piped.
const s = useSession();

describe("tracker issues attach", () => {
  it("attaches a file by path at a terminal, from stdin with -, and lists them in issues view", async () => {
    const api = createTracker({ baseUrl: s.server.url, apiKey: s.token, workspace: "" });
    await api.issues.create({ team: "ENG", title: "Broken layout" }); // ENG-1
    const dir = mkdtempSync(path.join(os.tmpdir(), "tracker-attach-"));
    const shot = path.join(dir, "shot.png");
    writeFileSync(shot, png(320, 200));

    const t = terminal(s, ["issues", "attach", "eng-1", shot]);
    expect(await t.exited).toBe(0);
    expect(t.plain()).toMatch(/Attached shot\.png to ENG-1 \(image\/png, 320×200, [\d.]+ k?B\)/);
    expect(t.plain()).toMatch(/\/api\/v1\/attachments\/[^/]+\/content\?expires=\d+&signature=/);

    const log = "FAIL src/app.test.ts\n  expected 2 to be 3\n";
    const piped = await s.run(["issues", "attach", "ENG-1", "-", "--name", "test.log", "--json"], {
      input: Buffer.from(log),
    });
    expect(piped.code).toBe(0);
    const media = JSON.parse(piped.stdout) as {
      title: string;
      url: string;
      metadata: Record<string, unknown>;
    };
    expect(media).toMatchObject({
      title: "test.log",
      metadata: { contentType: "text/plain; charset=utf-8", size: Buffer.byteLength(log) },
    });
    const download = await api.issues.download(media.url);
    expect(await new Response(download.body).text()).toBe(log);

    const view = terminal(s, ["issues", "view", "ENG-1"]);
    expect(await view.exited).toBe(0);
    expect(view.plain()).toContain("Attachments");
    expect(view.plain()).toMatch(/shot\.png {2}image\/png, [\d.]+ k?B/);
    expect(view.plain()).toMatch(/test\.log {2}text\/plain; charset=utf-8, 42 B/);

    const fields = await s.run(["issues", "view", "ENG-1"]);
    expect(fields.stdout).toContain("attachments:\tshot.png,test.log\n");
    const json = await s.run(["issues", "view", "ENG-1", "--json", "media", "--jq", ".media[].title"]);
    expect(json.stdout).toBe("shot.png\ntest.log\n");

    const missing = await s.run(["issues", "attach", "ENG-1", path.join(dir, "nope.png")]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain("nope.png");
  });
});
