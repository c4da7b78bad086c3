/**
 * Answers the router or Node give before an operation runs are problems like every other error: a method a
 * path does not take, an unknown method, headers over Node's limit. Clients switch on `code` everywhere.
 */
import { connect } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { testContract, useTestServer } from "../test/harness.js";

const srv = useTestServer();
let token: string;
beforeAll(async () => {
  token = (await srv.bootstrap()).apiKey.token;
});

async function problemOf(res: Response) {
  expect(res.headers.get("content-type")).toContain("application/problem+json");
  const body = (await res.json()) as {
    type: string;
    code: string;
    status: number;
    detail: string;
    requestId: string;
  };
  expect(body.requestId).toBe(res.headers.get("x-request-id"));
  // The contract's `Problem`: `type` is `urn:tracker:problem:<code>`.
  expect(body.type).toBe(`urn:tracker:problem:${body.code}`);
  expect(body.status).toBe(res.status);
  // No operation answers these, so the contract-checking client never sees them: check the body here.
  expect(testContract().checkSchema("Problem", body)).toEqual([]);
  return body;
}

describe("protocol errors", () => {
  it("answers a method a path does not take with 405 method_not_allowed and Allow", async () => {
    for (const path of ["/api/v1/invites/", "/api/v1/invites", "/api/v1/users"]) {
      const res = await fetch(`${srv.url}${path}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toContain("GET");
      const body = await problemOf(res);
      expect(body.code).toBe("method_not_allowed");
      expect(body.detail).toContain("GET");
    }
  });

  it("routes a path whatever its case, and answers a path no operation has with 404 not_found", async () => {
    const auth = { authorization: `Bearer ${token}` };
    for (const path of ["/API/V1/USERS", "/api/v1/Users", "/Health"]) {
      const res = await fetch(`${srv.url}${path}`, { headers: auth });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type"), path).toContain("application/json");
    }
    const res = await fetch(`${srv.url}/api/v1/usersx`, { headers: auth });
    expect(res.status).toBe(404);
    expect((await problemOf(res)).code).toBe("not_found");
  });

  it("answers an unknown method with 501 not_implemented", async () => {
    const res = await fetch(`${srv.url}/api/v1/users`, { method: "PROPFIND" });
    expect(res.status).toBe(501);
    expect((await problemOf(res)).code).toBe("not_implemented");
  });

  it("answers headers over Node's limit (a 100 KB query string) with 431 headers_too_large", async () => {
    const res = await fetch(`${srv.url}/api/v1/issues?q=${"a".repeat(100_000)}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(431);
    expect((await problemOf(res)).code).toBe("headers_too_large");
  });

  it("answers a request that is not HTTP with 400 invalid_request", async () => {
    const { port } = new URL(srv.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), "127.0.0.1", () => socket.write("NOT HTTP AT ALL\r\n\r\n"));
      let text = "";
      socket.on("data", (chunk) => {
        text += chunk;
      });
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain("application/problem+json");
    const body = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as { type: string; code: string };
    expect(body.code).toBe("invalid_request");
    expect(body.type).toBe("urn:tracker:problem:invalid_request");
    expect(testContract().checkSchema("Problem", body)).toEqual([]);
  });
});
