import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { Config } from "../../config.js";
import { Stream } from "../../test/event-stream.js";
import { useTestServer } from "../../test/harness.js";
import { abortedUpload, chunkedUpload, png } from "./attachment-fixtures.js";
import { DiskStore } from "./attachment-store.js";
import { sweepOrphanAttachments } from "./attachment-sweep.js";
import { signedUrl } from "./signed-url.js";

const dataDir = mkdtempSync(path.join(os.tmpdir(), "tracker-attachments-"));
const URL_SECRET = "attachments-test-url-key";
const MAX = 64 * 1024;
const srv = useTestServer({ dataDir, attachments: { maxBytes: MAX, s3: undefined, urlSecret: URL_SECRET } });
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const root = path.join(dataDir, "attachments");
/** Every file the disk store holds, temporary ones included. */
function storedFiles(): string[] {
  let dirs: string[];
  try {
    dirs = readdirSync(root);
  } catch {
    return [];
  }
  return dirs.flatMap((d) => readdirSync(path.join(root, d)).map((f) => `${d}/${f}`));
}

interface Media {
  id: string;
  url: string;
  title: string | null;
  metadata: Record<string, unknown>;
}

async function setup() {
  const { apiKey, workspace, user } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  const token = apiKey.token;
  const api = srv.client(token);
  const issue = (await api.POST("/issues", { body: { team: "ENG", title: "Broken", priority: 0 } })).data!
    .issue;
  return { token, api, workspace, adminId: user.id, issue };
}

const base = () => `${srv.url}/api/v1`;
const uploadUrl = (identifier: string, filename: string) =>
  `${base()}/issues/${identifier}/attachments?filename=${encodeURIComponent(filename)}`;

async function upload(
  token: string,
  identifier: string,
  body: Uint8Array | string,
  filename: string,
  contentType = "application/octet-stream",
): Promise<{ status: number; media: Media; problem: Record<string, unknown> }> {
  const res = await srv.fetch(
    new Request(uploadUrl(identifier, filename), {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": contentType },
      body,
    }),
  );
  const json = (await res.json()) as { attachment: Media } & Record<string, unknown>;
  return { status: res.status, media: json.attachment, problem: json };
}

const download = (url: string) => srv.fetch(new Request(new URL(url, srv.url)));

/** Whether the contract's uploadAttachment declares a request type that `type` falls under (exact, a range, any). */
function declaredUploadType(type: string): boolean {
  const contract = parse(readFileSync(new URL("../../../../../openapi.yaml", import.meta.url), "utf8")) as {
    paths: Record<string, Record<string, { operationId?: string; requestBody?: { content: object } }>>;
  };
  const op = Object.values(contract.paths)
    .flatMap((methods) => Object.values(methods))
    .find((o) => o.operationId === "uploadAttachment")!;
  const declared = Object.keys(op.requestBody!.content);
  const [major] = type.split("/");
  return declared.some((d) => d === type || d === "*/*" || d === `${major}/*`);
}

describe("attachments on disk", () => {
  it("takes the types the contract declares: a screenshot sent as image/png, a log as text/plain", async () => {
    const { token, issue } = await setup();
    for (const [type, body, name] of [
      ["image/png", png(3, 2), "shot.png"],
      ["text/plain", "a log line\n", "run.log"],
      ["application/octet-stream", "bytes", "blob.bin"],
    ] as const) {
      // A proxy that validates requests by the contract lets each through.
      expect(declaredUploadType(type), type).toBe(true);
      const up = await upload(token, issue.identifier, body, name, type);
      expect(up.status, type).toBe(201);
    }
  });

  it("round-trips a file: upload, list, read with the issue and in page-data, download the same bytes", async () => {
    const { token, api, issue } = await setup();
    const text = "line one\nline two ✓\n";
    const up = await upload(token, issue.identifier, text, "notes.txt");
    expect(up.status).toBe(201);
    expect(up.media).toMatchObject({
      id: expect.any(String),
      title: "notes.txt",
      metadata: {
        filename: "notes.txt",
        contentType: "text/plain; charset=utf-8",
        size: Buffer.byteLength(text),
        width: null,
        height: null,
      },
    });
    expect(up.media.url).toMatch(/^\/api\/v1\/attachments\/.+\/content\?expires=\d+&signature=/);

    const listed = await api.GET("/issues/{identifier}/attachments", {
      params: { path: { identifier: issue.identifier } },
    });
    expect(listed.data!.attachments.map((m) => m.id)).toEqual([up.media.id]);
    const detail = await api.GET("/issues/{identifier}", {
      params: { path: { identifier: issue.identifier } },
    });
    expect(detail.data!.issue.media.map((m) => m.id)).toEqual([up.media.id]);
    const page = await api.GET("/issues/{identifier}/page-data", {
      params: { path: { identifier: issue.identifier } },
    });
    expect(page.data!.media.map((m) => [m.id, m.metadata.filename])).toEqual([[up.media.id, "notes.txt"]]);

    const res = await download(up.media.url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-disposition")).toMatch(/^inline; filename\*=UTF-8''notes\.txt$/);
    expect(await res.text()).toBe(text);
    // Asked again with its tag: 304, nothing sent again.
    const again = await srv.fetch(
      new Request(new URL(up.media.url, srv.url), { headers: { "If-None-Match": res.headers.get("etag")! } }),
    );
    expect(again.status).toBe(304);
    // Sent as stored, whatever the client accepts: compressing files costs more than it saves. (A log of
    // 8 KB, well past the size above which JSON answers are compressed.)
    const log = "a line of a log file that compresses well\n".repeat(200);
    const logUp = await upload(token, issue.identifier, log, "server.log");
    const asked = await srv.fetch(
      new Request(new URL(logUp.media.url, srv.url), { headers: { "Accept-Encoding": "br, gzip" } }),
    );
    expect(asked.headers.get("content-encoding")).toBeNull();
    expect(asked.headers.get("content-length")).toBe(String(log.length));
    expect(await asked.text()).toBe(log);
    // On disk, durable and out of the temporary folder.
    expect(storedFiles()).toContain(`${up.media.id.slice(0, 2)}/${up.media.id}`);
  });

  it("takes the type from the bytes: a PNG sent as text/plain is image/png with its size, inline", async () => {
    const { token, issue } = await setup();
    const image = png(37, 21);
    const up = await upload(token, issue.identifier, image, "shot.txt", "text/plain");
    expect(up.status).toBe(201);
    expect(up.media.metadata).toMatchObject({
      contentType: "image/png",
      width: 37,
      height: 21,
      size: image.length,
    });
    const res = await download(up.media.url);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("content-disposition")).toMatch(/^inline/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await res.arrayBuffer()).equals(image)).toBe(true);
  });

  it("never serves what a browser could run inline: HTML, SVG and XML come as attachment", async () => {
    const { token, issue } = await setup();
    const cases = [
      ["page.png", "<!doctype html><script>alert(1)</script>", "image/png", "text/html"],
      [
        "logo.png",
        '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        "image/png",
        "image/svg+xml",
      ],
      ["feed.txt", '<?xml version="1.0"?><feed/>', "text/plain", "application/xml"],
    ] as const;
    for (const [name, body, claimed, sniffed] of cases) {
      const up = await upload(token, issue.identifier, body, name, claimed);
      expect(up.media.metadata.contentType, name).toBe(sniffed);
      const res = await download(up.media.url);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-disposition"), name).toMatch(/^attachment; filename/);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  it("answers every refusal with nosniff too, and refuses altered, expired and deleted links with 404", async () => {
    const { token, issue } = await setup();
    const up = await upload(token, issue.identifier, "secret log", "log.txt");
    const url = new URL(up.media.url, srv.url);
    const id = up.media.id;

    const tampered = new URL(url);
    tampered.searchParams.set("signature", `${url.searchParams.get("signature")!.slice(0, -2)}AA`);
    const later = new URL(url);
    later.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 900));
    const config = { attachments: { urlSecret: URL_SECRET } } as Config;
    const expired = signedUrl(config, id, Date.now() - 3 * 60 * 60_000);
    const fresh = signedUrl(config, id, Date.now());
    // The test signs as the server does: a fresh URL of its own making works, so the refusals below are
    // about the expiry and the signature, nothing else.
    expect((await download(fresh)).status).toBe(200);
    for (const bad of [tampered.toString(), later.toString(), expired]) {
      const res = await download(bad);
      expect(res.status, bad).toBe(404);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(((await res.json()) as { code: string }).code).toBe("not_found");
    }
    const removed = await srv.fetch(
      new Request(`${base()}/issues/${issue.identifier}/attachments/${id}`, {
        method: "DELETE",
        headers: { Authorization: `Bearer ${token}` },
      }),
    );
    expect(removed.status).toBe(200);
    expect((await download(up.media.url)).status).toBe(404);
  });

  it("refuses a file over the limit with 413, told by Content-Length or by the bytes, leaving nothing", async () => {
    const { token, issue } = await setup();
    const before = storedFiles().length;
    const big = await upload(token, issue.identifier, new Uint8Array(MAX + 1), "big.bin");
    expect(big.status).toBe(413);
    expect(big.problem.code).toBe("payload_too_large");
    expect(await chunkedUpload(uploadUrl(issue.identifier, "pipe.bin"), token, MAX * 3)).toBe(413);
    const exact = await upload(token, issue.identifier, new Uint8Array(MAX).fill(1), "exact.bin");
    expect(exact.status).toBe(201);
    expect(exact.media.metadata).toMatchObject({ size: MAX, contentType: "application/octet-stream" });
    const empty = await upload(token, issue.identifier, new Uint8Array(0), "empty.bin");
    expect(empty.status).toBe(400);
    const rows = await srv.query<{ filename: string }>(
      "select filename from attachments where issue_id = $1",
      [issue.id],
    );
    expect(rows.map((r) => r.filename)).toEqual(["exact.bin"]);
    expect(storedFiles().length).toBe(before + 1);
  });

  it("keeps nothing of an upload whose connection is cut mid-body", async () => {
    const { token, issue } = await setup();
    const before = storedFiles();
    const incoming = () => storedFiles().filter((f) => f.startsWith(".incoming/"));
    let during: string[] = [];
    await abortedUpload(uploadUrl(issue.identifier, "cut.bin"), token, 40_000, 10_000, async () => {
      const deadline = Date.now() + 10_000;
      while (!incoming().length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      during = incoming();
    });
    // The upload had begun: its bytes were on their way to a temporary file when the connection went.
    expect(during).toHaveLength(1);
    // The server notices the cut on its own time: wait until no temporary file is left.
    const deadline = Date.now() + 10_000;
    while (storedFiles().some((f) => f.startsWith(".incoming/")) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(storedFiles()).toEqual(before);
    expect(await srv.query("select 1 from attachments where issue_id = $1", [issue.id])).toEqual([]);
  });

  it("lets only those who see the issue list, upload and read it; other workspaces get nothing", async () => {
    const { token, api, workspace, issue } = await setup();
    const up = await upload(token, issue.identifier, png(4, 4), "shot.png");
    const list = (t: string, query = "") =>
      srv.fetch(
        new Request(`${base()}/issues/${issue.identifier}/attachments${query}`, {
          headers: { Authorization: `Bearer ${t}` },
        }),
      );

    // Someone of another workspace: the identifier names nothing there; naming this workspace is 403.
    const stranger = await srv.bootstrap({ team: { key: "OPS", name: "Ops" } });
    expect((await list(stranger.apiKey.token)).status).toBe(404);
    const named = await list(stranger.apiKey.token, `?workspace=${workspace.slug}`);
    expect(named.status).toBe(403);
    expect(((await named.json()) as { code: string }).code).toBe("workspace_forbidden");
    expect((await upload(stranger.apiKey.token, issue.identifier, "x", "x.txt")).status).toBe(404);

    // A guest sees the issues of their teams only.
    const guest = await srv.addMember(token, "guest");
    expect((await list(guest.token)).status).toBe(404);
    expect((await upload(guest.token, issue.identifier, "x", "x.txt")).status).toBe(404);
    await api.POST("/teams/{key}/members", {
      params: { path: { key: "ENG" } },
      body: { userId: guest.userId },
    });
    const seen = await list(guest.token);
    expect(seen.status).toBe(200);
    const media = ((await seen.json()) as { attachments: Media[] }).attachments;
    expect(media.map((m) => m.id)).toEqual([up.media.id]);
    expect((await download(media[0]!.url)).status).toBe(200);

    const member = await srv.addMember(token, "member");
    expect((await list(member.token)).status).toBe(200);
    expect((await upload(member.token, issue.identifier, "member's", "m.txt")).status).toBe(201);
  });

  it("lets the uploader or an admin delete a file, nobody else", async () => {
    const { token, issue } = await setup();
    const author = await srv.addMember(token, "member");
    const other = await srv.addMember(token, "member");
    const del = (t: string, id: string) =>
      srv.fetch(
        new Request(`${base()}/issues/${issue.identifier}/attachments/${id}`, {
          method: "DELETE",
          headers: { Authorization: `Bearer ${t}` },
        }),
      );
    const first = (await upload(author.token, issue.identifier, "one", "one.txt")).media;
    const second = (await upload(author.token, issue.identifier, "two", "two.txt")).media;

    const refused = await del(other.token, first.id);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe("forbidden");
    expect((await download(first.url)).status).toBe(200);

    expect((await del(author.token, first.id)).status).toBe(200);
    expect((await del(token, second.id)).status).toBe(200);
    expect((await del(token, second.id)).status).toBe(404);
    expect(storedFiles().some((f) => f.endsWith(first.id) || f.endsWith(second.id))).toBe(false);
    expect(await srv.query("select 1 from attachments where issue_id = $1", [issue.id])).toEqual([]);
  });

  it("announces added and removed files on the event stream", async () => {
    const { token, issue } = await setup();
    const live = new Stream(srv.url, token);
    const files = () => live.changeBodies().filter((e) => e.entity === "attachment");
    try {
      await live.opened();
      const up = await upload(token, issue.identifier, "trace", "trace.txt");
      await live.until(() => files().length > 0, "attachment created", 10_000);
      expect(files()[0]).toMatchObject({
        action: "created",
        id: up.media.id,
        identifier: issue.identifier,
      });
      await srv.fetch(
        new Request(`${base()}/issues/${issue.identifier}/attachments/${up.media.id}`, {
          method: "DELETE",
          headers: { Authorization: `Bearer ${token}` },
        }),
      );
      await live.until(() => files().some((e) => e.action === "deleted"), "attachment deleted", 10_000);
    } finally {
      live.close();
    }
  });

  it("keeps an issue's files when it moves to another team: listed under its new identifier, same links", async () => {
    const { token, api, issue } = await setup();
    await api.POST("/teams", { body: { key: "OPS", name: "Operations" } });
    const shot = (await upload(token, issue.identifier, png(3, 2), "shot.png")).media;
    const moved = await api.POST("/issues/move", { body: { identifiers: [issue.identifier], team: "OPS" } });
    expect(moved.response.status).toBe(200);
    const listed = await api.GET("/issues/{identifier}/attachments", {
      params: { path: { identifier: "OPS-1" } },
    });
    expect(listed.data!.attachments.map((m) => [m.id, m.title, m.metadata.width])).toEqual([
      [shot.id, "shot.png", 3],
    ]);
    // The link written into a description before the move still opens the file.
    const got = await download(shot.url);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(png(3, 2))).toBe(true);
  });

  it("removes an issue's files with the issue; the sweep removes files no row names", async () => {
    const { token, issue } = await setup();
    const a = (await upload(token, issue.identifier, png(2, 2), "a.png")).media;
    const b = (await upload(token, issue.identifier, "b", "b.txt")).media;
    const res = await srv.fetch(
      new Request(`${base()}/issues/${issue.identifier}`, {
        method: "DELETE",
        headers: { Authorization: `Bearer ${token}` },
      }),
    );
    expect(res.status).toBe(200);
    expect(storedFiles().some((f) => f.endsWith(a.id) || f.endsWith(b.id))).toBe(false);
    expect(await srv.query("select 1 from attachments where id = any($1)", [[a.id, b.id]])).toEqual([]);
    expect((await download(a.url)).status).toBe(404);

    // A file left behind (a crash between the file and its row), old enough, goes; a young one and the
    // files that have rows stay.
    const { issue: kept, token: keeper } = await setup();
    const keep = (await upload(keeper, kept.identifier, "keep", "keep.txt")).media;
    const orphan = "0f0f0f0f-0000-4000-8000-000000000000";
    const young = "0e0e0e0e-0000-4000-8000-000000000000";
    for (const key of [orphan, young]) {
      mkdirSync(path.join(root, key.slice(0, 2)), { recursive: true });
      writeFileSync(path.join(root, key.slice(0, 2), key), "stray");
    }
    const old = new Date(Date.now() - 2 * 60 * 60_000);
    utimesSync(path.join(root, orphan.slice(0, 2), orphan), old, old);
    utimesSync(path.join(root, keep.id.slice(0, 2), keep.id), old, old);
    const removed = await sweepOrphanAttachments(srv.running.orm.em, new DiskStore(root));
    expect(removed).toBe(1);
    const files = storedFiles();
    expect(files.some((f) => f.endsWith(orphan))).toBe(false);
    expect(files.some((f) => f.endsWith(young))).toBe(true);
    expect((await download(keep.url)).status).toBe(200);
  });
});
