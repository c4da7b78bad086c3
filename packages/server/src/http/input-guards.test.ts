/**
 * Values PostgreSQL cannot take (a NUL character in text, a number past its integer range) are refused as
 * the client's mistake, with the field named, and change nothing. Each case here once answered 500.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addTeam } from "../modules/projects/planning.fixtures.js";
import { startTestServer, type TestServer } from "../test/harness.js";

let srv: TestServer;
let token: string;
let workspaceId: string;
beforeAll(async () => {
  srv = await startTestServer();
  const { apiKey, workspace, user } = await srv.bootstrap();
  token = apiKey.token;
  workspaceId = workspace.id;
  await addTeam(srv, workspace.id, "ENG", [user.id]);
});
afterAll(() => srv.close());

async function call(method: string, path: string, body?: string) {
  const res = await fetch(`${srv.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body,
  });
  const text = await res.text();
  return {
    status: res.status,
    type: res.headers.get("content-type"),
    body: JSON.parse(text) as { code?: string; errors?: { path: string; message: string }[] } & Record<
      string,
      unknown
    >,
  };
}

const issueCount = async () =>
  Number(
    (
      await srv.query<{ n: string }>("select count(*) as n from issues where workspace_id = $1", [
        workspaceId,
      ])
    )[0]!.n,
  );

describe("the NUL character", () => {
  it("in a body is 400 naming the field, and nothing is created", async () => {
    const before = await issueCount();
    const res = await call("POST", "/issues", JSON.stringify({ team: "ENG", title: "a\u0000b" }));
    expect(res.status).toBe(400);
    expect(res.type).toContain("application/problem+json");
    expect(res.body.code).toBe("invalid_request");
    expect(res.body.errors).toEqual([{ path: "/body/title", message: "must not contain the NUL character" }]);
    expect(await issueCount()).toBe(before);

    const nested = await call(
      "POST",
      "/issues",
      JSON.stringify({ team: "ENG", title: "ok", labels: ["x\u0000"] }),
    );
    expect(nested.status).toBe(400);
    expect(nested.body.errors?.map((e) => e.path)).toEqual(["/body/labels/0"]);
    expect(await issueCount()).toBe(before);
  });

  it("in a path or query value is 400 naming the parameter", async () => {
    const read = await call("GET", "/issues/ENG-%00");
    expect(read.status).toBe(400);
    expect(read.body.errors?.map((e) => e.path)).toEqual(["/path/identifier"]);

    const team = await call("PATCH", "/teams/%00", JSON.stringify({ name: "x" }));
    expect(team.status).toBe(400);
    expect(team.body.errors?.map((e) => e.path)).toEqual(["/path/key"]);

    const search = await call("GET", "/issues?q=a%00b");
    expect(search.status).toBe(400);
    expect(search.body.errors?.map((e) => e.path)).toEqual(["/query/q"]);
  });
});

describe("deep nesting", () => {
  it("a body nested more than 32 levels is 400 naming where, and nothing is created", async () => {
    const before = await issueCount();
    const deep = `{"team":"ENG","title":"Deep","labels":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    const res = await call("POST", "/issues", deep);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("invalid_request");
    expect(res.body.errors).toEqual([
      { path: `/body/labels${"/0".repeat(31)}`, message: "is nested more than 32 levels deep" },
    ]);
    expect(await issueCount()).toBe(before);
    // 32 levels is still fine as far as nesting goes (the schema then says what it thinks of it).
    const ok = await call("POST", "/views", JSON.stringify({ name: "Nested", filters: nest(30) }));
    expect(ok.body.errors?.some((e) => e.message.includes("nested"))).not.toBe(true);
  });
});

const nest = (levels: number): unknown => (levels === 0 ? "x" : { a: nest(levels - 1) });

describe("integers past the database's range", () => {
  it("an offset over 2147483647 is 400; the largest one is an empty last page", async () => {
    for (const path of ["/issues", "/projects", "/initiatives"]) {
      const over = await call("GET", `${path}?offset=99999999999999999999`);
      expect({ path, status: over.status, code: over.body.code }).toEqual({
        path,
        status: 400,
        code: "invalid_request",
      });
      expect(over.body.errors?.map((e) => e.path)).toEqual(["/query/offset"]);
      const last = await call("GET", `${path}?offset=2147483647`);
      expect({ path, status: last.status, nextOffset: last.body.nextOffset }).toEqual({
        path,
        status: 200,
        nextOffset: null,
      });
    }
  });

  it("a cycle number over 2147483647 is 400 and the issue keeps its cycle", async () => {
    const created = await call("POST", "/issues", JSON.stringify({ team: "ENG", title: "Cycle range" }));
    expect(created.status).toBe(201);
    const identifier = (created.body.issue as { identifier: string }).identifier;
    const res = await call("PATCH", `/issues/${identifier}`, JSON.stringify({ cycle: 1e20 }));
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]?.path).toBe("/body/cycle");
    const after = await call("GET", `/issues/${identifier}`);
    expect((after.body.issue as { cycle: unknown }).cycle).toBeNull();
  });
});
