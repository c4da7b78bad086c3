import { randomUUID } from "node:crypto";
import { anIssue, problem } from "@tracker/sdk/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { allHandlers } from "../handlers.js";
import { contractChecking, testContract, useTestServer } from "../test/harness.js";
import { Contract } from "./contract.js";

const srv = useTestServer();
let token: string;
beforeAll(async () => {
  token = (await srv.bootstrap()).apiKey.token;
});

const implemented = new Set(allHandlers.map((h) => h.operationId as string));

describe("the contract", () => {
  it("has a handler only for operations it declares", () => {
    const declared = new Set(testContract().operations.map((o) => o.operationId));
    expect([...implemented].filter((id) => !declared.has(id))).toEqual([]);
  });

  it("answers 501 not_implemented for every operation not built yet, and lists them", async () => {
    const ops = testContract().operations.filter((o) => !o.unversioned);
    const missing = ops.filter((o) => !implemented.has(o.operationId));
    const done = ops.filter((o) => implemented.has(o.operationId));
    console.log(
      `Contract operations: ${ops.length}; implemented ${done.length}; not implemented ${missing.length}` +
        (missing.length
          ? `:\n  ${missing.map((o) => `${o.method.toUpperCase()} ${o.path} (${o.operationId})`).join("\n  ")}`
          : ""),
    );
    for (const op of missing) {
      const path = op.path.replace(/\{[^}]+\}/g, () => randomUUID());
      const res = await fetch(`${srv.url}/api/v1${path}`, {
        method: op.method.toUpperCase(),
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: ["post", "put", "patch"].includes(op.method) ? "{}" : undefined,
      });
      const body = (await res.json()) as { code: string };
      expect({ op: op.operationId, status: res.status, code: body.code }).toEqual({
        op: op.operationId,
        status: 501,
        code: "not_implemented",
      });
    }
  });

  it("is served as JSON and as a readable reference page", async () => {
    const json = await fetch(`${srv.url}/api/v1/openapi.json`);
    expect(json.status).toBe(200);
    const doc = (await json.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\.1/);
    expect(Object.keys(doc.paths)).toContain("/issues/{identifier}");
    const page = await fetch(`${srv.url}/docs`);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    expect(html).toContain("listIssues");
    expect(html).toContain("<code>/issues/{identifier}</code>");
  });
});

describe("errors", () => {
  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${srv.url}/api/v1/workspaces`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
      body,
    });

  it("answers malformed JSON with 400 invalid_request, not a 500", async () => {
    const res = await post('{"name": ');
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect(((await res.json()) as { code: string }).code).toBe("invalid_request");
  });

  it("names each wrong field, unknown fields included", async () => {
    const res = await post(JSON.stringify({ name: 5, colour: "red" }));
    const body = (await res.json()) as { errors: { path: string; message: string }[] };
    expect(res.status).toBe(400);
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { path: "/body/name", message: "must be string" },
        { path: "/body/colour", message: "is not a known field" },
      ]),
    );
  });

  it("refuses a body over 1 MiB with 413 payload_too_large", async () => {
    const res = await post(JSON.stringify({ name: "x".repeat(1_100_000) }));
    expect(res.status).toBe(413);
    expect(((await res.json()) as { code: string }).code).toBe("payload_too_large");
  });

  it("types every problem urn:tracker:problem:<code>, as the contract's Problem says", async () => {
    const answers = [
      await post('{"name": '),
      await post(JSON.stringify({ name: "x".repeat(1_100_000) })),
      await fetch(`${srv.url}/api/v1/nothing-here`, { headers: { authorization: `Bearer ${token}` } }),
      await fetch(`${srv.url}/api/v1/users`),
      await fetch(`${srv.url}/api/v1/issues/ENG-999999`, { headers: { authorization: `Bearer ${token}` } }),
    ];
    const seen = await Promise.all(
      answers.map(async (res) => {
        const body = (await res.json()) as { type: string; code: string; status: number };
        expect(body.status).toBe(res.status);
        return [body.code, body.type];
      }),
    );
    expect(seen).toEqual([
      ["invalid_request", "urn:tracker:problem:invalid_request"],
      ["payload_too_large", "urn:tracker:problem:payload_too_large"],
      ["not_found", "urn:tracker:problem:not_found"],
      ["unauthenticated", "urn:tracker:problem:unauthenticated"],
      ["not_found", "urn:tracker:problem:not_found"],
    ]);
  });

  it("answers an unknown route with a 404 problem", async () => {
    const res = await fetch(`${srv.url}/api/v1/nothing-here`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { code: string }).code).toBe("not_found");
  });

  it("gives every response a request id, keeping a sane one the client sent", async () => {
    const mine = await fetch(`${srv.url}/health`, { headers: { "x-request-id": "trace-123" } });
    expect(mine.headers.get("x-request-id")).toBe("trace-123");
    const bogus = await fetch(`${srv.url}/health`, { headers: { "x-request-id": "<script>" } });
    expect(bogus.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("reports the database's state on /health without a key", async () => {
    const res = await fetch(`${srv.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", database: "up" });
  });
});

/**
 * The check every test's responses go through (`contractCheckingFetch`, `Contract.checkResponse`) must
 * itself be shown to catch a wrong answer, or it could stop checking and every test would still pass.
 */
describe("the response check", () => {
  const contract = () => testContract();
  const getIssue = () => contract().operation("getIssue");
  const detail = (over: Record<string, unknown> = {}) => ({
    issue: {
      ...anIssue(),
      comments: [],
      subIssues: [],
      relations: [],
      pullRequests: [],
      media: [],
      branchName: "eng-1",
      ...over,
    },
  });
  const notFound = (over: Record<string, unknown> = {}) => ({
    type: "urn:tracker:problem:not_found",
    title: "Not found",
    status: 404,
    detail: "No issue ENG-999.",
    code: "not_found",
    requestId: "r",
    ...over,
  });
  const check = (status: number, type: string, body: unknown) =>
    contract().checkResponse(getIssue(), status, type, body);

  it("passes answers the contract describes", () => {
    expect(check(200, "application/json", detail())).toEqual([]);
    expect(check(404, "application/problem+json", notFound())).toEqual([]);
    const completed = { state: { id: randomUUID(), name: "Done", type: "completed" } };
    expect(
      check(200, "application/json", detail({ ...completed, completedAt: "2025-01-03T00:00:00.000Z" })),
    ).toEqual([]);
    // A second check uses the validator the first compiled, with the same answer.
    expect(check(404, "application/problem+json", notFound())).toEqual([]);
  });

  it("flags an issue its schema does not describe: each rule the contract states", () => {
    const wrong: [string, Record<string, unknown>, RegExp][] = [
      ["a lowercase identifier", { identifier: "eng-1" }, /\/issue\/identifier must match pattern/],
      ["identifier number 0", { identifier: "ENG-0" }, /\/issue\/identifier must match pattern/],
      ["a team key of 8", { team: { id: randomUUID(), key: "ENGINEER", name: "E" } }, /\/issue\/team\/key/],
      ["priority 5", { priority: 5 }, /\/issue\/priority must be equal to one of the allowed values/],
      [
        "a timestamp with an offset",
        { createdAt: "2025-01-01T01:00:00+01:00" },
        /\/issue\/createdAt must match/,
      ],
      [
        "a due date with a time",
        { dueDate: "2025-01-01T00:00:00Z" },
        /\/issue\/dueDate must match format "date"/,
      ],
      ["a label twice", { labels: ["bug", "bug"] }, /\/issue\/labels must NOT have duplicate items/],
      [
        "completedAt on an open issue",
        { completedAt: "2025-01-03T00:00:00.000Z" },
        /\/issue\/completedAt must be null/,
      ],
      [
        "a field the contract does not list",
        { secret: "x" },
        /must NOT have unevaluated properties \(secret\)/,
      ],
      [
        "a nested one",
        { team: { id: randomUUID(), key: "ENG", name: "E", workspaceId: "w" } },
        /\(workspaceId\)/,
      ],
    ];
    for (const [what, over, message] of wrong) {
      const problems = check(200, "application/json", detail(over));
      expect(problems.join("\n"), what).toMatch(message);
      expect(
        problems.every((p) => p.startsWith("getIssue 200: ")),
        what,
      ).toBe(true);
    }
    const { title: _, ...untitled } = anIssue();
    expect(
      check(200, "application/json", {
        issue: {
          ...untitled,
          comments: [],
          subIssues: [],
          relations: [],
          pullRequests: [],
          media: [],
          branchName: "eng-1",
        },
      }),
    ).toContain("getIssue 200: /issue must have required property 'title'");
  });

  it("flags a problem its schema does not describe", () => {
    const wrong: [string, Record<string, unknown>, RegExp][] = [
      ["the old type", { type: "https://tracker.dev/problems/not-found" }, /\/type must match pattern/],
      ["another status for the code", { status: 409 }, /\/status must be equal to constant/],
      [
        "a code another status has",
        { code: "conflict", type: "urn:tracker:problem:conflict" },
        /\/code must be equal to constant/,
      ],
      [
        "an unknown code",
        { code: "gone_fishing", type: "urn:tracker:problem:gone_fishing" },
        /\/code must be equal to one of/,
      ],
      [
        "an error path outside the request",
        { errors: [{ path: "/title", message: "bad" }] },
        /\/errors\/0\/path must match pattern/,
      ],
      ["an empty detail", { detail: "" }, /\/detail must NOT have fewer than 1 characters/],
      ["a field Problem does not list", { stack: "at x" }, /unevaluated properties \(stack\)/],
    ];
    for (const [what, over, message] of wrong) {
      expect(check(404, "application/problem+json", notFound(over)).join("\n"), what).toMatch(message);
    }
    const { requestId: _, ...anonymous } = notFound();
    expect(check(404, "application/problem+json", anonymous)).toContain(
      "getIssue 404: / must have required property 'requestId'",
    );
  });

  it("flags a status, content type or body the operation does not declare", () => {
    expect(check(418, "application/problem+json", notFound({ status: 418 }))).toEqual([
      "getIssue: status 418 is not declared",
    ]);
    // `default` answers for server errors only.
    expect(check(409, "application/problem+json", notFound({ status: 409 }))).toEqual([
      "getIssue: status 409 is not declared",
    ]);
    const failure = {
      ...notFound(),
      status: 500,
      code: "internal_error",
      type: "urn:tracker:problem:internal_error",
    };
    expect(check(500, "application/problem+json", failure)).toEqual([]);
    expect(check(404, "application/json", notFound())).toEqual([
      'getIssue 404: content type "application/json" is not declared',
    ]);
    expect(check(200, "application/json", "")).toEqual(["getIssue 200: / must be object"]);
  });

  it("flags a body where the contract declares none, and a JSON body it gives no schema", () => {
    const bare = new Contract({
      openapi: "3.1.0",
      paths: {
        "/x": {
          get: {
            operationId: "bare",
            responses: {
              "200": { description: "no schema", content: { "application/json": {} } },
              "204": { description: "no body" },
            },
          },
        },
      },
    });
    const op = bare.operation("bare");
    expect(bare.checkResponse(op, 200, "application/json", { anything: true })).toEqual([
      "bare 200: the contract gives no schema for application/json, so nothing can check it",
    ]);
    expect(bare.checkResponse(op, 204, null, "")).toEqual([]);
    expect(bare.checkResponse(op, 204, "application/json", { surprise: 1 })).toEqual([
      "bare 204: sends a body where the contract declares none",
    ]);
  });

  it("fails a test on a wrong answer: contractCheckingFetch throws rather than passing it on", async () => {
    const answering = (body: unknown, status = 404, type = "application/problem+json") =>
      contractChecking(async () =>
        Response.json(body, { status, headers: { "content-type": type, "x-request-id": "r" } }),
      );
    const url = `${srv.url}/api/v1/issues/ENG-1`;
    await expect(answering(notFound())(new Request(url))).resolves.toBeInstanceOf(Response);
    await expect(
      answering(notFound({ type: "https://tracker.dev/problems/not-found" }))(new Request(url)),
    ).rejects.toThrow(/GET \/api\/v1\/issues\/ENG-1 → 404 breaks the contract:\n.*\/type must match pattern/);
    await expect(answering(notFound({ requestId: "other" }))(new Request(url))).rejects.toThrow(
      "problem body's requestId differs from X-Request-Id",
    );
    await expect(
      answering(notFound({ code: "forbidden", status: 403, type: "urn:tracker:problem:forbidden" }))(
        new Request(url),
      ),
    ).rejects.toThrow("problem body's status differs from the HTTP status");
    await expect(
      answering(notFound({ type: "urn:tracker:problem:forbidden" }))(new Request(url)),
    ).rejects.toThrow("problem body's type is not urn:tracker:problem:<code>");
    await expect(
      answering(detail({ identifier: "ENG" }), 200, "application/json")(new Request(url)),
    ).rejects.toThrow(/\/issue\/identifier must match pattern/);
    await expect(answering(notFound())(new Request(`${srv.url}/api/v1/nothing-here`))).rejects.toThrow(
      "no operation of the contract takes GET /api/v1/nothing-here",
    );
    const notJson = contractChecking(
      async () =>
        new Response("<html>", {
          status: 200,
          headers: { "content-type": "application/json", "x-request-id": "r" },
        }),
    );
    await expect(notJson(new Request(url))).rejects.toThrow("body is not JSON");
  });

  it("holds the SDK's test answers, which the other packages' tests are fed, to the contract", async () => {
    expect(contract().checkSchema("Issue", anIssue())).toEqual([]);
    const body = await problem(404, "not_found", "No issue ENG-9.").json();
    // The fake's `title` is its code, not a summary: the schema asks only for some title.
    expect(contract().checkSchema("Problem", body)).toEqual([]);
    expect(contract().checkSchema("Issue", { ...anIssue(), identifier: "eng-1" })).toEqual([
      'Issue: /identifier must match pattern "^[A-Z][A-Z0-9]{0,6}-[1-9][0-9]*$"',
    ]);
  });
});
