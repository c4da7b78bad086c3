import { createTracker } from "@tracker/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { json, useSession } from "../../test/binary.js";
import { terminal } from "../../test/terminal.js";

// `tracker api`, after gh's: the method is GET, or POST when fields are given; -X, --paginate, -H, -i.
const s = useSession();

beforeAll(async () => {
  const sdk = createTracker({ baseUrl: s.server.url, apiKey: s.token, workspace: "" });
  for (const title of ["One", "Two", "Three"]) await sdk.issues.create({ team: "ENG", title });
});

describe("tracker api", () => {
  it("GETs a path given alone, in a terminal", async () => {
    const run = terminal(s, ["api", "/users"]);
    expect(await run.exited).toBe(0);
    expect(run.plain()).toContain('"email": "');
  });

  it("POSTs when fields are given, takes another method with -X or before the path", async () => {
    const created = await s.run(["api", "/labels", "-f", "name=bug"]);
    expect(created.code).toBe(0);
    expect(json<{ label: { name: string } }>(created).label.name).toBe("bug");
    const patched = await s.run(["api", "-X", "PATCH", "/issues/ENG-1", "-f", "title=Uno"]);
    expect(json<{ issue: { title: string } }>(patched).issue.title).toBe("Uno");
    const old = await s.run(["api", "PATCH", "/issues/ENG-2", "-f", "title=Dos"]);
    expect(json<{ issue: { title: string } }>(old).issue.title).toBe("Dos");
    const twice = await s.run(["api", "-X", "GET", "PATCH", "/issues/ENG-2"]);
    expect(twice).toMatchObject({ code: 2 });
    expect(twice.stderr).toContain("give the method once");
  });

  it("follows every page with --paginate", async () => {
    const all = await s.run(["api", "/issues?limit=1&sort=created", "--paginate"]);
    expect(json<{ issues: { identifier: string }[]; nextOffset: null }>(all)).toMatchObject({
      issues: [{ identifier: "ENG-1" }, { identifier: "ENG-2" }, { identifier: "ENG-3" }],
      nextOffset: null,
      nextCursor: null,
    });
    // From an offset on, then by each page's cursor.
    const rest = await s.run(["api", "/issues?limit=1&sort=created&offset=1", "--paginate"]);
    expect(json<{ issues: { identifier: string }[] }>(rest).issues.map((i) => i.identifier)).toEqual([
      "ENG-2",
      "ENG-3",
    ]);
  });

  it("sends headers with -H and prints the status line and headers with -i", async () => {
    const run = terminal(s, ["api", "-i", "/users", "-H", `X-Service-Workspace: ${s.workspace.slug}`]);
    expect(await run.exited).toBe(0);
    expect(run.plain()).toMatch(/^HTTP 200 OK\r?\n/m);
    expect(run.plain()).toContain(`X-Service-Workspace: ${s.workspace.slug}`);
    expect(run.plain()).toMatch(/X-Request-Id: \S+/);
    const bad = await s.run(["api", "/users", "-H", "nocolon"]);
    expect(bad).toMatchObject({ code: 2 });
  });

  it("sends a JSON body from stdin, and exits 1 with the server's problem", async () => {
    const label = await s.run(["api", "POST", "/labels", "--input", "-"], { input: '{"name":"ui"}' });
    expect(json<{ label: { name: string } }>(label).label.name).toBe("ui");
    const missing = await s.run(["api", "/issues/ENG-99"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^not_found: /);
  });
});

describe("tracker api with fields or a JSON body", () => {
  it("makes raw API calls with fields or a JSON body from stdin", async () => {
    const created = await s.run(["api", "POST", "/labels", "--input", "-", "--jq", ".label.name"], {
      input: '{"name":"from-api"}',
    });
    expect(created).toMatchObject({ code: 0, stdout: "from-api\n" });
    const listed = await s.run(["api", "GET", "/issues", "-F", "limit=1", "--jq", ".issues | length"]);
    expect(listed.stdout).toBe("1\n");
    const missing = await s.run(["api", "GET", "/issues/ENG-999"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^not_found: /);
  });
});
