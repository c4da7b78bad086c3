import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { allHandlers } from "../handlers.js";
import { testContract, useTestServer } from "../test/harness.js";

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

  it("checks a response against its declared schema, and flags one that does not conform", () => {
    const contract = testContract();
    const op = contract.operation("getIssue");
    const wrong = { issue: { id: 5, identifier: null } };
    const problems = contract.checkResponse(op, 200, "application/json", wrong);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join("\n")).toContain("getIssue 200");
    // A second check of the same response uses the validator compiled by the first, with the same answer.
    expect(contract.checkResponse(op, 200, "application/json", wrong)).toEqual(problems);
    expect(contract.checkResponse(op, 418, "application/json", {})).toEqual([
      "getIssue: status 418 is not declared",
    ]);
    const problem = {
      type: "about:blank",
      title: "Not found",
      status: 404,
      detail: "No issue ENG-999.",
      code: "not_found",
      requestId: "r",
    };
    expect(contract.checkResponse(op, 404, "application/problem+json", problem)).toEqual([]);
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
