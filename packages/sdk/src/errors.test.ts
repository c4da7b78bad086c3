import { describe, expect, it } from "vitest";
import { createTracker, TrackerError, TrackerNetworkError } from "./index.js";
import { connectionRefused, fakeFetch, problem } from "./test/fake-fetch.js";

describe("errors", () => {
  it("turns a problem body into a TrackerError with its code, status, requestId and field errors", async () => {
    const errors = [{ path: "/body/title", message: "must NOT have fewer than 1 characters" }];
    const fake = fakeFetch(problem(400, "invalid_request", { errors, title: "Invalid request" }));
    const tracker = createTracker({ baseUrl: "http://tracker.test", fetch: fake.fetch });

    const err = await tracker.issues.create({ team: "ENG", title: "" }).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(TrackerError);
    expect(err).toMatchObject({
      status: 400,
      code: "invalid_request",
      title: "Invalid request",
      detail: "invalid_request happened",
      requestId: "req-1",
      errors,
      workspaces: [],
    });
    expect((err as Error).message).toBe("Invalid request: invalid_request happened");
  });

  it("keeps the workspaces a workspace_required problem offers", async () => {
    const workspaces = [
      { id: "w1", slug: "acme", name: "Acme" },
      { id: "w2", slug: "labs", name: "Labs" },
    ];
    const fake = fakeFetch(problem(400, "workspace_required", { workspaces }));
    const tracker = createTracker({ baseUrl: "http://tracker.test", fetch: fake.fetch });

    await expect(tracker.users.list()).rejects.toMatchObject({ code: "workspace_required", workspaces });
  });

  it("synthesizes a TrackerError from a non-JSON error body, keeping the status and request id", async () => {
    const html = "<html><body><h1>502 Bad Gateway</h1></body></html>";
    const badGateway = () =>
      new Response(html, {
        status: 502,
        statusText: "Bad Gateway",
        headers: { "content-type": "text/html", "x-request-id": "proxy-7" },
      });
    const fake = fakeFetch(badGateway());
    const tracker = createTracker({ baseUrl: "http://tracker.test", fetch: fake.fetch, maxRetries: 0 });

    const err = await tracker.teams.list().catch((e: unknown) => e);

    expect(err).toBeInstanceOf(TrackerError);
    expect(err).toMatchObject({
      status: 502,
      code: "service_unavailable",
      title: "Bad Gateway",
      requestId: "proxy-7",
    });
    expect((err as TrackerError).detail).toContain("502 Bad Gateway");
  });

  it("synthesizes a code from the status when the error body is empty", async () => {
    const fake = fakeFetch(new Response(null, { status: 404, statusText: "Not Found" }));
    const tracker = createTracker({ baseUrl: "http://tracker.test", fetch: fake.fetch });

    await expect(tracker.issues.get("ENG-404")).rejects.toMatchObject({
      status: 404,
      code: "not_found",
      requestId: undefined,
    });
  });

  it("gives a bare answer the contract's code for its status", async () => {
    const bare = (status: number) => new Response("", { status });
    const statuses = [405, 413, 422, 429, 431, 500, 502, 503, 504, 418];
    const fake = fakeFetch(...statuses.map(bare));
    const tracker = createTracker({ baseUrl: "http://tracker.test", fetch: fake.fetch, maxRetries: 0 });

    const codes: string[] = [];
    for (const _ of statuses) {
      const err = await tracker.users.list().catch((e: unknown) => e);
      codes.push((err as TrackerError).code);
    }

    expect(codes).toEqual([
      "method_not_allowed",
      "payload_too_large",
      "idempotency_key_reused",
      "rate_limited",
      "headers_too_large",
      "internal_error",
      "service_unavailable",
      "service_unavailable",
      "service_unavailable",
      "invalid_request",
    ]);
  });

  it("reports a code newer than this SDK by its status, keeping the server's words", async () => {
    const fake = fakeFetch(problem(409, "board_locked", { title: "Board locked" }));
    const tracker = createTracker({ baseUrl: "http://tracker.test", fetch: fake.fetch });

    await expect(tracker.teams.list()).rejects.toMatchObject({
      status: 409,
      code: "conflict",
      title: "Board locked",
      detail: "board_locked happened",
    });
  });

  it("throws TrackerNetworkError, with the cause, when the server cannot be reached after the retries", async () => {
    const fake = fakeFetch(connectionRefused(), connectionRefused());
    const tracker = createTracker({ baseUrl: "http://tracker.test", fetch: fake.fetch, maxRetries: 1 });

    const err = await tracker.users.list().catch((e: unknown) => e);

    expect(err).toBeInstanceOf(TrackerNetworkError);
    expect((err as Error).message).toMatch(/http:\/\/tracker\.test.*ECONNREFUSED.*2 attempt/);
    expect((err as Error).cause).toBeInstanceOf(TypeError);
    expect(fake.requests).toHaveLength(2);
  });
});
