import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../test/free-port.js";
import { startAnotherInstance, useTestServer } from "../../test/harness.js";
import { abortedUpload, png } from "./attachment-fixtures.js";
import type { S3Settings } from "./attachment-store.js";

/**
 * The S3 path of the attachment store against a real S3-compatible server (s3rver, in this process),
 * as a self-hoster running several instances on one database configures it (`TRACKER_S3_*`).
 */
const folder = mkdtempSync(path.join(os.tmpdir(), "tracker-s3-"));
const port = await freePort();
const BUCKET = "tracker-files";
const s3: S3Settings = {
  bucket: BUCKET,
  endpoint: `http://127.0.0.1:${port}`,
  region: "us-east-1",
  // s3rver's fixed credentials.
  accessKeyId: "S3RVER",
  secretAccessKey: "S3RVER",
  forcePathStyle: true,
};
const attachments = { maxBytes: 1024 * 1024, s3, urlSecret: "s3-test-url-key" };
const s3rver = new S3rver({
  address: "127.0.0.1",
  port,
  silent: true,
  directory: path.join(folder, "s3"),
  configureBuckets: [{ name: BUCKET, configs: [] }],
});
beforeAll(async () => {
  await s3rver.run();
});
// The server's data folder is separate, to show nothing lands there.
const srv = useTestServer({ dataDir: path.join(folder, "data"), attachments });
afterAll(async () => {
  await s3rver.close();
  rmSync(folder, { recursive: true, force: true });
});

const client = new S3Client({
  region: s3.region,
  endpoint: s3.endpoint,
  forcePathStyle: true,
  credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
});
async function objects(): Promise<string[]> {
  const page = await client.send(new ListObjectsV2Command({ Bucket: BUCKET }));
  return (page.Contents ?? []).map((o) => o.Key!).sort();
}

async function upload(token: string, identifier: string, body: Uint8Array | string, filename: string) {
  const res = await srv.fetch(
    new Request(`${srv.url}/api/v1/issues/${identifier}/attachments?filename=${filename}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/octet-stream" },
      body,
    }),
  );
  return {
    status: res.status,
    media: (
      (await res.json()) as { attachment: { id: string; url: string; metadata: Record<string, unknown> } }
    ).attachment,
  };
}

describe("attachments in S3", () => {
  it("stores uploads as objects, serves them from any instance, deletes them with the attachment or the issue", async () => {
    const { apiKey } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
    const api = srv.client(apiKey.token);
    const issue = (await api.POST("/issues", { body: { team: "ENG", title: "S3", priority: 0 } })).data!
      .issue;
    const image = png(640, 360);
    const up = await upload(apiKey.token, issue.identifier, image, "screen.png");
    expect(up.status).toBe(201);
    expect(up.media.metadata).toMatchObject({
      contentType: "image/png",
      width: 640,
      height: 360,
      size: image.length,
    });
    expect(await objects()).toEqual([`attachments/${up.media.id}`]);

    // A second instance on the same database and bucket serves the same signed URL.
    const other = await startAnotherInstance(srv.databaseUrl, {
      dataDir: path.join(folder, "data2"),
      attachments,
    });
    try {
      for (const base of [srv.url, other.url]) {
        const res = await fetch(new URL(up.media.url, base));
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toBe("image/png");
        expect(res.headers.get("x-content-type-options")).toBe("nosniff");
        expect(Buffer.from(await res.arrayBuffer()).equals(image)).toBe(true);
      }
    } finally {
      await other.close();
    }

    // A cut upload leaves no object (nor a half-finished multipart upload's parts).
    await abortedUpload(
      `${srv.url}/api/v1/issues/${issue.identifier}/attachments?filename=cut.bin`,
      apiKey.token,
      200_000,
      50_000,
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(await objects()).toEqual([`attachments/${up.media.id}`]);
    expect(await srv.query("select 1 from attachments where issue_id = $1", [issue.id])).toHaveLength(1);

    const log = await upload(apiKey.token, issue.identifier, "trace line\n", "trace.log");
    expect((await objects()).length).toBe(2);
    const del = await api.DELETE("/issues/{identifier}/attachments/{attachmentId}", {
      params: { path: { identifier: issue.identifier, attachmentId: log.media.id } },
    });
    expect(del.response.status).toBe(200);
    expect(await objects()).toEqual([`attachments/${up.media.id}`]);

    await api.DELETE("/issues/{identifier}", { params: { path: { identifier: issue.identifier } } });
    expect(await objects()).toEqual([]);
    expect((await fetch(new URL(up.media.url, srv.url))).status).toBe(404);
  });
});
