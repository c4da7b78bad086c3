// Attachments through the SDK against a real server: every kind of data `issues.attach` takes, the path
// helper of `@tracker/sdk/node`, listing and downloading.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { startTestServer, type TestServer } from "@tracker/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTracker, type Tracker, TrackerError } from "./index.js";
import { fileFromPath } from "./node.js";

let server: TestServer;
let tracker: Tracker;
let identifier: string;

beforeAll(async () => {
  server = await startTestServer();
  const { apiKey } = await server.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  tracker = createTracker({ baseUrl: server.url, apiKey: apiKey.token, workspace: "", fetch: server.fetch });
  identifier = (await tracker.issues.create({ team: "ENG", title: "Screenshots" })).identifier;
});
afterAll(() => server?.close());

const text = (s: string) => new TextEncoder().encode(s);

describe("issues.attach", () => {
  it("uploads a Blob, a Buffer, a Uint8Array, a web stream, a Node stream and a file by path", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "sdk-attach-"));
    const onDisk = path.join(dir, "build.log");
    writeFileSync(onDisk, "step 1 ok\nstep 2 failed\n");
    const file = await fileFromPath(onDisk);

    const uploads = [
      await tracker.issues.attach(identifier, new Blob(["from a blob"]), { filename: "blob.txt" }),
      await tracker.issues.attach(identifier, Buffer.from("from a buffer"), { filename: "buffer.txt" }),
      await tracker.issues.attach(identifier, text("from bytes"), { filename: "bytes.txt" }),
      await tracker.issues.attach(
        identifier,
        new ReadableStream({
          start(c) {
            c.enqueue(text("from a web "));
            c.enqueue(text("stream"));
            c.close();
          },
        }),
        { filename: "web.txt" },
      ),
      await tracker.issues.attach(
        identifier,
        Readable.from([Buffer.from("from a node "), Buffer.from("stream")]),
        {
          filename: "node.txt",
        },
      ),
      await tracker.issues.attach(identifier, file.data, { filename: file.filename }),
    ];
    expect(uploads.map((m) => [m.title, m.metadata.size])).toEqual([
      ["blob.txt", 11],
      ["buffer.txt", 13],
      ["bytes.txt", 10],
      ["web.txt", 17],
      ["node.txt", 18],
      ["build.log", 24],
    ]);

    const listed = await tracker.issues.attachments(identifier);
    expect(listed.map((m) => m.title)).toEqual(uploads.map((m) => m.title));
    const contents = [];
    for (const m of listed) {
      const got = await tracker.issues.download(m.url);
      expect(got.contentType).toBe("text/plain; charset=utf-8");
      expect(got.disposition).toBe("inline");
      contents.push(await new Response(got.body).text());
    }
    expect(contents).toEqual([
      "from a blob",
      "from a buffer",
      "from bytes",
      "from a web stream",
      "from a node stream",
      "step 1 ok\nstep 2 failed\n",
    ]);
    expect((await tracker.issues.get(identifier)).media).toHaveLength(6);
  });

  it("reports progress as the bytes go out, up to the whole size, and stores them unchanged", async () => {
    const bytes = Buffer.alloc(3 * 1024 * 1024, "tracker ");
    for (const data of [bytes, new Blob([bytes])]) {
      const seen: { sent: number; total: number | undefined }[] = [];
      const media = await tracker.issues.attach(identifier, data, {
        filename: "big.log",
        onProgress: (p) => seen.push(p),
      });
      expect(seen.length).toBeGreaterThan(1);
      expect(seen.at(-1)).toEqual({ sent: bytes.byteLength, total: bytes.byteLength });
      expect(seen.map((p) => p.sent)).toEqual([...seen.map((p) => p.sent)].sort((a, b) => a - b));
      expect(media.metadata.size).toBe(bytes.byteLength);
      const got = await tracker.issues.download(media.url);
      expect(Buffer.from(await new Response(got.body).arrayBuffer()).equals(bytes)).toBe(true);
    }
  });

  it("names a File by its own name, trusts the bytes over the type given, and deletes", async () => {
    const html = new File(["<html><body>hi</body></html>"], "page.png", { type: "image/png" });
    const media = await tracker.issues.attach(identifier, html);
    expect(media.title).toBe("page.png");
    expect(media.metadata.contentType).toBe("text/html");
    expect((await tracker.issues.download(media.url)).disposition).toBe("attachment");
    await tracker.issues.deleteAttachment(identifier, media.id);
    const err = await tracker.issues.download(media.url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TrackerError);
    expect((err as TrackerError).status).toBe(404);
  });

  it("throws the server's problem for an issue that does not exist", async () => {
    const err = await tracker.issues
      .attach("ENG-999", Buffer.from("x"), { filename: "x.txt" })
      .catch((e) => e);
    expect(err).toBeInstanceOf(TrackerError);
    expect((err as TrackerError).code).toBe("not_found");
  });
});
