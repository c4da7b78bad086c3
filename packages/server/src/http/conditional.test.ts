import { createTracker } from "@tracker/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test/harness.js";
import { Contract } from "./contract.js";

// The contract's "Compression" and "Conditional requests", as a client on a real network meets them.
describe("bytes on the wire", () => {
  let srv: TestServer;
  let token: string;
  let get: (path: string, headers?: Record<string, string>) => Promise<Response>;
  beforeAll(async () => {
    srv = await startTestServer();
    token = (await srv.bootstrap()).apiKey.token;
    const tracker = createTracker({ baseUrl: srv.url, apiKey: token, revalidate: false });
    await tracker.teams.create({ name: "Engineering", key: "ENG" });
    for (let i = 0; i < 30; i++) await tracker.issues.create({ team: "ENG", title: `Issue number ${i}` });
    // Through the contract-checking fetch: a 304 must be an answer the contract declares.
    get = (path, headers = {}) =>
      srv.fetch(
        new Request(`${srv.url}/api/v1${path}`, {
          headers: { Authorization: `Bearer ${token}`, ...headers },
        }),
      );
  });
  afterAll(() => srv.close());

  it("compresses a list in brotli or gzip as the client asks, and leaves small answers alone", async () => {
    const plain = await get("/issues?limit=30", { "Accept-Encoding": "identity" });
    const plainText = await plain.text();
    expect(plain.headers.get("content-encoding")).toBeNull();
    for (const encoding of ["br", "gzip"]) {
      const res = await get("/issues?limit=30", { "Accept-Encoding": encoding });
      expect(res.headers.get("content-encoding")).toBe(encoding);
      expect(res.headers.get("vary")).toContain("Accept-Encoding");
      // fetch decodes it: the same JSON arrives.
      expect(await res.text()).toBe(plainText);
    }
    const small = await get("/teams", { "Accept-Encoding": "gzip" });
    expect((await small.text()).length).toBeLessThan(1024);
    expect(small.headers.get("content-encoding")).toBeNull();
  });

  it("answers an unchanged read 304 with no body for its ETag, and a changed one 200 with a new tag", async () => {
    const first = await get("/issues/ENG-1");
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(first.headers.get("cache-control")).toBe("private, no-cache");

    const again = await get("/issues/ENG-1", { "If-None-Match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(etag);

    // Another tag, or a list of tags holding this one, as RFC 9110 reads `If-None-Match`.
    expect((await get("/issues/ENG-1", { "If-None-Match": 'W/"other"' })).status).toBe(200);
    expect((await get("/issues/ENG-1", { "If-None-Match": `W/"other", ${etag}` })).status).toBe(304);

    const tracker = createTracker({ baseUrl: srv.url, apiKey: token, revalidate: false });
    await tracker.issues.update("ENG-1", { title: "Renamed" });
    const changed = await get("/issues/ENG-1", { "If-None-Match": etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
    expect(((await changed.json()) as { issue: { title: string } }).issue.title).toBe("Renamed");
  });

  it("tags lists too, and a created issue changes the list's tag", async () => {
    const list = await get("/issues?team=ENG&limit=5&sort=-created");
    const etag = list.headers.get("etag")!;
    expect((await get("/issues?team=ENG&limit=5&sort=-created", { "If-None-Match": etag })).status).toBe(304);
    const tracker = createTracker({ baseUrl: srv.url, apiKey: token, revalidate: false });
    await tracker.issues.create({ team: "ENG", title: "Newest" });
    expect((await get("/issues?team=ENG&limit=5&sort=-created", { "If-None-Match": etag })).status).toBe(200);
  });

  it("never compresses or holds back the event stream", async () => {
    const controller = new AbortController();
    const res = await fetch(`${srv.url}/api/v1/events`, {
      headers: { Authorization: `Bearer ${token}`, "Accept-Encoding": "gzip, br" },
      signal: controller.signal,
    });
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(res.headers.get("etag")).toBeNull();
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain("connected");
    controller.abort();
  });
});

describe("the rate limit and revalidation", () => {
  it("does not count a 304 against the key's rate limit", async () => {
    const srv = await startTestServer({ rateLimitPerMinute: 60 });
    const other = (await srv.bootstrap()).apiKey.token;
    const ask = (headers: Record<string, string> = {}) =>
      fetch(`${srv.url}/api/v1/users`, { headers: { Authorization: `Bearer ${other}`, ...headers } });
    const etag = (await ask()).headers.get("etag")!;
    // A burst of 10 (60 a minute): far more revalidations than that all pass.
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) statuses.push((await ask({ "If-None-Match": etag })).status);
    expect(statuses).toEqual(Array(25).fill(304));
    const full: number[] = [];
    for (let i = 0; i < 12; i++) full.push((await ask()).status);
    expect(full).toContain(429);
    await srv.close();
  });
});

describe("the SDK's revalidation", () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer();
  });
  afterAll(() => srv.close());

  it("asks again with the tag it kept and gives the same answer from a 304", async () => {
    const token = (await srv.bootstrap()).apiKey.token;
    const statuses: number[] = [];
    const tracker = createTracker({
      baseUrl: srv.url,
      apiKey: token,
      fetch: async (request) => {
        const res = await srv.fetch(request);
        statuses.push(res.status);
        return res;
      },
    });
    await tracker.teams.create({ name: "Engineering", key: "ENG" });
    await tracker.issues.create({ team: "ENG", title: "Kept" });
    statuses.length = 0;
    const first = await tracker.issues.get("ENG-1");
    const second = await tracker.issues.get("ENG-1");
    expect(statuses).toEqual([200, 304]);
    expect(second).toEqual(first);
    expect(tracker.lastResponse?.status).toBe(200);
    await tracker.issues.update("ENG-1", { title: "Changed" });
    statuses.length = 0;
    expect((await tracker.issues.get("ENG-1")).title).toBe("Changed");
    expect(statuses).toEqual([200]);
  });
});

describe("the contract", () => {
  it("declares the 304 on every read, since any read may answer one", () => {
    const reads = Contract.load().operations.filter((op) => op.method === "get");
    expect(reads.length).toBeGreaterThan(20);
    expect(reads.filter((op) => !op.responses.has("304")).map((op) => op.operationId)).toEqual([]);
  });
});
