import { afterEach, describe, expect, it } from "vitest";
import { createTracker, parseEventStream, TrackerError, type TrackerEvent } from "./index.js";
import { chunkedBody, connectionReset, eventStream, fakeFetch, problem } from "./test/fake-fetch.js";
import { type LocalServer, localServer } from "./test/local-server.js";

const baseUrl = "http://tracker.test";

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const each of iterable) out.push(each);
  return out;
}

describe("parseEventStream", () => {
  const text = [
    ": keep-alive comment",
    "event: connected",
    'data: {"workspace":"acme"}',
    "",
    "event: changed",
    "id: 1042",
    'data: {"entity":"issue","action":"updated","id":"6f1c","identifier":"ENG-12","teamKey":"ENG","at":"2025-01-15T09:30:00.000Z"}',
    "",
    ":another comment",
    "event: ping",
    "data: {}",
    "",
    "data: first line",
    "data:second line, no space",
    "data: ünïcödé ✓",
    "",
    "event: nodata",
    "id: 1043",
    "",
    "event: changed",
    'data: {"entity":"label"',
    "",
    "",
  ].join("\n");
  const expected = [
    { event: "connected", id: undefined, data: '{"workspace":"acme"}' },
    {
      event: "changed",
      id: "1042",
      data: '{"entity":"issue","action":"updated","id":"6f1c","identifier":"ENG-12","teamKey":"ENG","at":"2025-01-15T09:30:00.000Z"}',
    },
    { event: "ping", id: "1042", data: "{}" },
    { event: "message", id: "1042", data: "first line\nsecond line, no space\nünïcödé ✓" },
    // An event without data is not dispatched, and eventsource-parser drops its id with it.
    { event: "changed", id: "1042", data: '{"entity":"label"' },
  ];

  it("parses events, ids, comments and multi-line data from one chunk", async () => {
    await expect(collect(parseEventStream(chunkedBody(text)))).resolves.toEqual(expected);
  });

  it("gives the same events however the body is cut into chunks", async () => {
    const length = new TextEncoder().encode(text).length;
    // Every single cut point, including inside "ü" (2 bytes) and "✓" (3 bytes) and inside field names.
    for (let cut = 1; cut < length; cut++) {
      await expect(collect(parseEventStream(chunkedBody(text, [cut])))).resolves.toEqual(expected);
    }
    // And byte by byte.
    const everyByte = Array.from({ length }, (_, i) => i);
    await expect(collect(parseEventStream(chunkedBody(text, everyByte)))).resolves.toEqual(expected);
  });

  it("accepts CRLF and CR line endings, even with a CRLF split across chunks", async () => {
    const crlf = "event: a\r\ndata: 1\r\n\r\nevent: b\rdata: 2\r\r";
    const want = [
      { event: "a", id: undefined, data: "1" },
      { event: "b", id: undefined, data: "2" },
    ];
    for (let cut = 1; cut < crlf.length; cut++) {
      await expect(collect(parseEventStream(chunkedBody(crlf, [cut])))).resolves.toEqual(want);
    }
  });

  it("drops an event the stream ends before completing, and reports retry:", async () => {
    const retries: number[] = [];
    const events = await collect(
      parseEventStream(chunkedBody("retry: 2500\ndata: complete\n\ndata: incomplete\n"), {
        onRetry: (ms) => retries.push(ms),
      }),
    );
    expect(events).toEqual([{ event: "message", id: undefined, data: "complete" }]);
    expect(retries).toEqual([2500]);
  });
});

describe("events.stream", () => {
  it("yields parsed events and reconnects with Last-Event-ID after the connection drops", async () => {
    const controller = new AbortController();
    const first = [
      "retry: 5",
      "event: connected",
      'data: {"workspace":"acme"}',
      "",
      "event: changed",
      "id: 7",
      'data: {"entity":"issue","action":"created","id":"a","identifier":"ENG-1","teamKey":"ENG","at":"2025-01-15T09:30:00.000Z"}',
      "",
      "event: ping",
      "data: {}",
      "",
      "",
    ].join("\n");
    const second = [
      "event: connected",
      'data: {"workspace":"acme"}',
      "",
      "event: changed",
      "id: 8",
      'data: {"entity":"comment","action":"created","id":"b","identifier":"ENG-1","teamKey":"ENG","at":"2025-01-15T09:31:00.000Z"}',
      "",
      "",
    ].join("\n");
    const fake = fakeFetch(
      eventStream(chunkedBody(first, [10, 40, 97], connectionReset())),
      // The reconnection fails once at the network level (GET: retried by the fetch layer), then works.
      connectionReset(),
      eventStream(chunkedBody(second, [3])),
    );
    const tracker = createTracker({ baseUrl, apiKey: "trk_x", workspace: "acme", fetch: fake.fetch });

    const seen: TrackerEvent[] = [];
    for await (const event of tracker.events.stream({ signal: controller.signal })) {
      seen.push(event);
      if (event.id === "8") controller.abort();
    }

    expect(seen.map((e) => [e.event, e.id])).toEqual([
      ["connected", undefined],
      ["changed", "7"],
      ["ping", "7"],
      ["connected", "7"],
      ["changed", "8"],
    ]);
    expect(seen[1]!.data).toEqual({
      entity: "issue",
      action: "created",
      id: "a",
      identifier: "ENG-1",
      teamKey: "ENG",
      at: "2025-01-15T09:30:00.000Z",
    });
    expect(seen[0]!.data).toEqual({ workspace: "acme" });
    expect(fake.requests).toHaveLength(3);
    for (const request of fake.requests) {
      expect(new URL(request.url).pathname).toBe("/api/v1/events");
      expect(request.headers.get("accept")).toBe("text/event-stream");
      expect(request.headers.get("authorization")).toBe("Bearer trk_x");
      expect(request.headers.get("x-service-workspace")).toBe("acme");
    }
    expect(fake.requests[0]!.headers.has("last-event-id")).toBe(false);
    expect(fake.requests[1]!.headers.get("last-event-id")).toBe("7");
    expect(fake.requests[2]!.headers.get("last-event-id")).toBe("7");
  });

  it("reconnects when the server closes the stream, starting from the given lastEventId", async () => {
    const controller = new AbortController();
    const fake = fakeFetch(
      eventStream(chunkedBody("retry: 1\nevent: reset\ndata: {}\n\n")),
      eventStream(chunkedBody("event: changed\nid: 12\ndata: {}\n\n")),
    );
    const tracker = createTracker({ baseUrl, fetch: fake.fetch });

    const seen: TrackerEvent[] = [];
    for await (const event of tracker.events.stream({ lastEventId: "3", signal: controller.signal })) {
      seen.push(event);
      if (seen.length === 2) controller.abort();
    }

    expect(seen).toEqual([
      { event: "reset", id: "3", data: {} },
      { event: "changed", id: "12", data: {} },
    ]);
    expect(fake.requests.map((r) => r.headers.get("last-event-id"))).toEqual(["3", "3"]);
  });

  it("throws the TrackerError when a reconnection is refused (the key lost access)", async () => {
    const fake = fakeFetch(
      eventStream(chunkedBody("retry: 1\nevent: connected\ndata: {}\n\n")),
      problem(401, "unauthenticated"),
    );
    const tracker = createTracker({ baseUrl, fetch: fake.fetch });

    const seen: string[] = [];
    const err = await (async () => {
      for await (const event of tracker.events.stream()) seen.push(event.event);
    })().catch((e: unknown) => e);

    expect(seen).toEqual(["connected"]);
    expect(err).toBeInstanceOf(TrackerError);
    expect(err).toMatchObject({ status: 401, code: "unauthenticated" });
  });

  it("throws when the first connection is refused, and ends quietly when aborted while connected", async () => {
    const refused = createTracker({ baseUrl, fetch: fakeFetch(problem(403, "workspace_forbidden")).fetch });
    await expect(collect(refused.events.stream())).rejects.toMatchObject({ code: "workspace_forbidden" });

    const controller = new AbortController();
    const never = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode("event: connected\ndata: {}\n\n"));
      },
    });
    const open = createTracker({ baseUrl, fetch: fakeFetch(eventStream(never)).fetch });
    const seen: string[] = [];
    for await (const event of open.events.stream({ signal: controller.signal })) {
      seen.push(event.event);
      setTimeout(() => controller.abort(), 10);
    }
    expect(seen).toEqual(["connected"]);
  });
});

describe("events.stream on a connection that goes silent", () => {
  let server: LocalServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("takes a connection silent for longer than idleTimeoutMs as dropped and resumes with Last-Event-ID", async () => {
    server = await localServer((_req, res, index) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      // The first connection sends two events and then nothing at all, without closing.
      if (index === 0)
        res.write('retry: 10\nevent: connected\ndata: {}\n\nevent: changed\nid: 41\ndata: {"n":1}\n\n');
      else res.write('event: connected\ndata: {}\n\nevent: changed\nid: 42\ndata: {"n":2}\n\n');
    });
    const tracker = createTracker({ baseUrl: server.url, apiKey: "trk_x" });
    const controller = new AbortController();

    const started = performance.now();
    const seen: [string, string | undefined][] = [];
    for await (const event of tracker.events.stream({ signal: controller.signal, idleTimeoutMs: 300 })) {
      seen.push([event.event, event.id]);
      if (event.id === "42") controller.abort();
    }

    expect(seen).toEqual([
      ["connected", undefined],
      ["changed", "41"],
      ["connected", "41"],
      ["changed", "42"],
    ]);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]!.headers["last-event-id"]).toBeUndefined();
    expect(server.requests[1]!.headers["last-event-id"]).toBe("41");
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(280);
    expect(elapsed).toBeLessThan(3_000);
  });

  it("keeps a connection that sends only keep-alive comments, however long between events", async () => {
    server = await localServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("event: connected\ndata: {}\n\n");
      const keepAlive = setInterval(() => res.write(": keep-alive\n"), 50);
      res.on("close", () => clearInterval(keepAlive));
    });
    const tracker = createTracker({ baseUrl: server.url });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 800);

    const seen: string[] = [];
    for await (const event of tracker.events.stream({ signal: controller.signal, idleTimeoutMs: 200 })) {
      seen.push(event.event);
    }

    expect(seen).toEqual(["connected"]);
    expect(server.requests).toHaveLength(1);
  });

  it("sends the stream's extra headers on every connection", async () => {
    const controller = new AbortController();
    const fake = fakeFetch(
      eventStream(chunkedBody("retry: 1\nevent: connected\ndata: {}\n\n")),
      eventStream(chunkedBody("event: connected\ndata: {}\n\n")),
    );
    const tracker = createTracker({ baseUrl, fetch: fake.fetch });

    let count = 0;
    for await (const _ of tracker.events.stream({
      signal: controller.signal,
      headers: { "X-Client": "board" },
    })) {
      if (++count === 2) controller.abort();
    }

    expect(fake.requests.map((r) => r.headers.get("x-client"))).toEqual(["board", "board"]);
    expect(fake.requests.map((r) => r.headers.get("accept"))).toEqual([
      "text/event-stream",
      "text/event-stream",
    ]);
  });
});
