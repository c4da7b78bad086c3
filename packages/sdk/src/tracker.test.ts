import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createTracker, responseOf } from "./index.js";
import { fakeFetch, json } from "./test/fake-fetch.js";
import { SDK_VERSION } from "./version.js";

const baseUrl = "http://tracker.test";
const issue = (n: number) => ({ id: `id-${n}`, identifier: `ENG-${n}`, title: `Issue ${n}` });

describe("createTracker", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("sends the key, the workspace and a User-Agent on every call, under /api/v1", async () => {
    const bea = { id: "u 1", name: "Bea", email: "bea@example.com", role: "guest", isMe: false };
    const fake = fakeFetch(json({ users: [] }), json({ user: bea }));
    const tracker = createTracker({
      baseUrl: `${baseUrl}/`,
      apiKey: "trk_abc",
      workspace: "acme",
      fetch: fake.fetch,
    });

    await tracker.users.list();
    // The contract answers the member as they now are.
    await expect(tracker.members.update("u 1", { role: "guest" })).resolves.toEqual(bea);

    for (const request of fake.requests) {
      expect(request.headers.get("authorization")).toBe("Bearer trk_abc");
      expect(request.headers.get("x-service-workspace")).toBe("acme");
      expect(request.headers.get("user-agent")).toMatch(new RegExp(`^tracker-sdk/${SDK_VERSION} node/`));
    }
    expect(fake.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      "GET http://tracker.test/api/v1/users",
      "PATCH http://tracker.test/api/v1/members/u%201",
    ]);
    expect(await fake.requests[1]!.json()).toEqual({ role: "guest" });
  });

  it("sends a call's extra headers with that call only, over the client's own", async () => {
    const fake = fakeFetch(json({ users: [] }), json({ users: [] }), json({ issue: issue(1) }, 201));
    const tracker = createTracker({ baseUrl, apiKey: "trk_abc", workspace: "acme", fetch: fake.fetch });

    await tracker.users.list({ headers: { "X-Trace-Id": "t-1", "X-Service-Workspace": "labs" } });
    await tracker.users.list();
    await tracker.issues.create({ team: "ENG", title: "A" }, { headers: { "X-Trace-Id": "t-2" } });

    const [first, second, third] = fake.requests;
    expect(first!.headers.get("x-trace-id")).toBe("t-1");
    expect(first!.headers.get("x-service-workspace")).toBe("labs");
    expect(first!.headers.get("authorization")).toBe("Bearer trk_abc");
    expect(second!.headers.has("x-trace-id")).toBe(false);
    expect(second!.headers.get("x-service-workspace")).toBe("acme");
    expect(third!.headers.get("x-trace-id")).toBe("t-2");
    expect(third!.headers.get("content-type")).toBe("application/json");
  });

  it("passes a call's options to every page iterate fetches", async () => {
    const fake = fakeFetch(
      json({ issues: [issue(1)], nextOffset: 1 }),
      json({ issues: [issue(2)], nextOffset: null }),
    );
    const tracker = createTracker({ baseUrl, fetch: fake.fetch });

    const seen: string[] = [];
    for await (const each of tracker.issues.iterate({ team: "ENG" }, { headers: { "X-Trace-Id": "t-3" } })) {
      seen.push(each.identifier);
    }

    expect(seen).toEqual(["ENG-1", "ENG-2"]);
    expect(fake.requests.map((r) => r.headers.get("x-trace-id"))).toEqual(["t-3", "t-3"]);
  });

  it("falls back to TRACKER_URL, TRACKER_API_KEY and TRACKER_WORKSPACE", async () => {
    vi.stubEnv("TRACKER_URL", "http://env.test:4000");
    vi.stubEnv("TRACKER_API_KEY", "trk_env");
    vi.stubEnv("TRACKER_WORKSPACE", "env-ws");
    const fake = fakeFetch(json({ teams: [] }));

    await createTracker({ fetch: fake.fetch, userAgent: "my-script/1.0" }).teams.list();

    const [request] = fake.requests;
    expect(request!.url).toBe("http://env.test:4000/api/v1/teams");
    expect(request!.headers.get("authorization")).toBe("Bearer trk_env");
    expect(request!.headers.get("x-service-workspace")).toBe("env-ws");
    expect(request!.headers.get("user-agent")).toBe("my-script/1.0");
  });

  it("sets no User-Agent in a browser page, whose CORS preflight would refuse it", async () => {
    vi.stubGlobal("document", {});
    try {
      const fake = fakeFetch(json({ users: [] }), json({ issue: issue(1) }, 201));
      const tracker = createTracker({ baseUrl, apiKey: "trk_abc", fetch: fake.fetch });

      await tracker.users.list();
      await tracker.issues.create({ team: "ENG", title: "A" });

      // Only headers the contract's CORS rules allow (Content-Type, Authorization, Idempotency-Key ...).
      const allowed = [
        "authorization",
        "content-type",
        "idempotency-key",
        "last-event-id",
        "x-request-id",
        "x-service-workspace",
      ];
      for (const request of fake.requests) {
        expect([...request.headers.keys()].filter((h) => !allowed.includes(h))).toEqual([]);
      }
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("sends no Authorization or workspace header when none is configured", async () => {
    vi.stubEnv("TRACKER_API_KEY", "");
    vi.stubEnv("TRACKER_WORKSPACE", "");
    const fake = fakeFetch(json({ workspace: {}, user: {}, apiKey: {} }, 201));

    await createTracker({ baseUrl, fetch: fake.fetch }).invites.accept({ token: "inv_x" });

    expect(fake.requests[0]!.headers.has("authorization")).toBe(false);
    expect(fake.requests[0]!.headers.has("x-service-workspace")).toBe(false);
  });

  it("serializes list filters as comma lists (style: form, explode: false)", async () => {
    const fake = fakeFetch(json({ issues: [], nextOffset: null }), json({ projects: [], nextOffset: null }));
    const tracker = createTracker({ baseUrl, fetch: fake.fetch });

    await tracker.issues.list({
      team: "ENG",
      special: ["overdue", "blocked"],
      stateType: ["started", "unstarted"],
      label: ["bug", "needs review"],
      limit: 10,
    });
    await tracker.projects.list({ status: ["started"], health: ["at_risk", "off_track"], special: [] });

    const first = new URL(fake.requests[0]!.url);
    expect(first.search).toBe(
      "?team=ENG&special=overdue,blocked&stateType=started,unstarted&label=bug,needs%20review&limit=10",
    );
    expect(first.searchParams.get("special")).toBe("overdue,blocked");
    expect(new URL(fake.requests[1]!.url).search).toBe("?status=started&health=at_risk,off_track");
  });

  it("unwraps single-object answers and returns void for { ok: true }, marking each with its answer", async () => {
    const detail = { ...issue(1), comments: [] };
    const fake = fakeFetch(
      json({ issue: detail }),
      json({ ok: true }),
      json({ cycle: { id: "c1" }, rolledOver: 3 }, 201),
    );
    const tracker = createTracker({ baseUrl, fetch: fake.fetch });

    const got = await tracker.issues.get("ENG-1");
    expect(got).toEqual(detail);
    expect(responseOf(got)).toMatchObject({ status: 200, requestId: "req-ok", attempts: 1 });
    await expect(tracker.teams.join("ENG")).resolves.toBeUndefined();
    expect(tracker.lastResponse).toMatchObject({ status: 200, method: "POST" });
    await expect(tracker.cycles.create({ team: "ENG" })).resolves.toEqual({
      cycle: { id: "c1" },
      rolledOver: 3,
    });
  });
});

describe("SDK_VERSION", () => {
  it("matches package.json, so the User-Agent tells the truth", () => {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      version: string;
    };
    expect(SDK_VERSION).toBe(pkg.version);
  });
});

describe("pagination", () => {
  it("iterate follows nextCursor across pages and stops at null", async () => {
    const fake = fakeFetch(
      json({ issues: [issue(1), issue(2)], nextOffset: 2, nextCursor: "c2" }),
      json({ issues: [issue(3), issue(4)], nextOffset: null, nextCursor: "c4" }),
      json({ issues: [issue(5)], nextOffset: null, nextCursor: null }),
      json({ issues: [issue(6)], nextOffset: null, nextCursor: null }), // never asked for
    );
    const tracker = createTracker({ baseUrl, fetch: fake.fetch });

    const seen: string[] = [];
    for await (const each of tracker.issues.iterate({ team: "ENG", limit: 2, offset: 10 })) {
      seen.push(each.identifier);
    }

    expect(seen).toEqual(["ENG-1", "ENG-2", "ENG-3", "ENG-4", "ENG-5"]);
    // The first page where the caller asked; then by cursor, without the offset.
    expect(fake.requests.map((r) => new URL(r.url).search)).toEqual([
      "?team=ENG&limit=2&offset=10",
      "?team=ENG&limit=2&cursor=c2",
      "?team=ENG&limit=2&cursor=c4",
    ]);
  });

  it("iterate follows nextOffset of a server that answers no nextCursor", async () => {
    const fake = fakeFetch(
      json({ issues: [issue(1), issue(2)], nextOffset: 2 }),
      json({ issues: [issue(3), issue(4)], nextOffset: 4 }),
      json({ issues: [issue(5)], nextOffset: null }),
      json({ issues: [issue(6)], nextOffset: null }), // never asked for
    );
    const tracker = createTracker({ baseUrl, fetch: fake.fetch });

    const seen: string[] = [];
    for await (const each of tracker.issues.iterate({ team: "ENG", special: ["mine"], limit: 2 })) {
      seen.push(each.identifier);
    }

    expect(seen).toEqual(["ENG-1", "ENG-2", "ENG-3", "ENG-4", "ENG-5"]);
    expect(fake.requests.map((r) => new URL(r.url).search)).toEqual([
      "?team=ENG&special=mine&limit=2",
      "?team=ENG&special=mine&limit=2&offset=2",
      "?team=ENG&special=mine&limit=2&offset=4",
    ]);
  });

  it("fetches only the pages the loop consumes", async () => {
    const fake = fakeFetch(
      json({ projects: [{ name: "A" }, { name: "B" }], nextOffset: 2 }),
      json({ projects: [{ name: "C" }], nextOffset: null }),
    );
    const tracker = createTracker({ baseUrl, fetch: fake.fetch });

    for await (const project of tracker.projects.iterate({ offset: 0 })) {
      if (project.name === "A") break;
    }
    expect(fake.requests).toHaveLength(1);
  });

  it("list returns one page as { items, nextOffset }, the same shape for every paged list", async () => {
    const fake = fakeFetch(
      json({ initiatives: [{ name: "Q3" }], nextOffset: 50 }),
      json({ issues: [issue(1)], nextOffset: null }),
      json({ projects: [{ name: "Launch" }], nextOffset: 1 }),
    );
    const tracker = createTracker({ baseUrl, fetch: fake.fetch });

    await expect(tracker.initiatives.list()).resolves.toEqual({ items: [{ name: "Q3" }], nextOffset: 50 });
    await expect(tracker.issues.list()).resolves.toEqual({ items: [issue(1)], nextOffset: null });
    await expect(tracker.projects.list()).resolves.toEqual({ items: [{ name: "Launch" }], nextOffset: 1 });
  });
});
