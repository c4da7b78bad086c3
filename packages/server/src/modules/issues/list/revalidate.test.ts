import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../test/harness.js";
import { versionTagApplies } from "./revalidate.query.js";

// Cheap revalidation of GET /issues (revalidate.query.ts): the ETag comes from versions the database keeps,
// and a request naming it is answered 304 without running the list.
let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(() => srv.close());

/** A raw GET of the list with the key, and If-None-Match when given. */
async function list(token: string, query: string, tag?: string) {
  const res = await fetch(`${srv.url}/api/v1/issues?${query}`, {
    headers: { authorization: `Bearer ${token}`, ...(tag ? { "if-none-match": tag } : {}) },
  });
  const text = await res.text();
  return { status: res.status, etag: res.headers.get("etag")!, text };
}

describe("GET /issues revalidation from the workspace's versions", () => {
  it("answers 304 while nothing changed, and the new page after every kind of change that alters it", async () => {
    const { apiKey } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
    const token = apiKey.token;
    const api = srv.client(token);
    const amy = await srv.addMember(token, "member", "amy@example.com");
    const label = (await api.POST("/labels", { body: { name: "bug" } })).data!.label;
    const project = (await api.POST("/projects", { body: { name: "Launch", teams: ["ENG"] } })).data!.project;
    const issue = (
      await api.POST("/issues", {
        body: { team: "ENG", title: "First", labels: ["bug"], assignee: amy.email, project: project.id },
      })
    ).data!.issue;
    const query = "team=ENG&sort=-updated";

    let current = await list(token, query);
    expect(current.status).toBe(200);
    expect(current.etag).toMatch(/^W\/"l\./);
    expect(JSON.parse(current.text).issues).toHaveLength(1);

    const again = await list(token, query, current.etag);
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    // The same tag for another query, or another caller, is not the same answer.
    expect((await list(token, "team=ENG&sort=title", current.etag)).status).toBe(200);
    expect((await list(amy.token, query, current.etag)).status).toBe(200);

    // The 304 reads no issue: a change written behind the server's back (recording no change) goes
    // unseen, which shows the list did not run; every write through the API records its change.
    await srv.query("update issues set title = 'Behind its back' where id = $1", [issue.id]);
    expect((await list(token, query, current.etag)).status).toBe(304);

    const changes: [string, () => Promise<unknown>, (text: string) => boolean][] = [
      [
        "issue update",
        () =>
          api.PATCH("/issues/{identifier}", {
            params: { path: { identifier: issue.identifier } },
            body: { title: "Renamed" },
          }),
        (t) => t.includes('"Renamed"'),
      ],
      [
        "issue create",
        () => api.POST("/issues", { body: { team: "ENG", title: "Second" } }),
        (t) => t.includes('"Second"'),
      ],
      [
        "label rename",
        () => api.PATCH("/labels/{id}", { params: { path: { id: label.id } }, body: { name: "defect" } }),
        (t) => t.includes('"defect"'),
      ],
      [
        "project rename",
        () =>
          api.PATCH("/projects/{id}", { params: { path: { id: project.id } }, body: { name: "Liftoff" } }),
        (t) => t.includes('"Liftoff"'),
      ],
      [
        "state rename",
        () =>
          api.PATCH("/teams/{key}/states/{stateId}", {
            params: { path: { key: "ENG", stateId: issue.state.id } },
            body: { name: "Queued" },
          }),
        (t) => t.includes('"Queued"'),
      ],
      [
        "assignee renames themself",
        () => srv.client(amy.token).PATCH("/me", { body: { name: "Amy Pond" } }),
        (t) => t.includes('"Amy Pond"'),
      ],
      [
        "issue archived",
        () =>
          api.POST("/issues/{identifier}/archive", { params: { path: { identifier: issue.identifier } } }),
        (t) => !t.includes(issue.id),
      ],
    ];
    for (const [kind, change, shows] of changes) {
      const res = await change();
      expect((res as { response?: Response }).response?.ok ?? true, kind).toBe(true);
      const next = await list(token, query, current.etag);
      expect(next.status, kind).toBe(200);
      expect(shows(next.text), kind).toBe(true);
      expect(next.etag, kind).not.toBe(current.etag);
      expect((await list(token, query, next.etag)).status, kind).toBe(304);
      current = next;
    }
  });

  it("moves with membership and visibility: a guest added to a team, a guest made a member", async () => {
    const { apiKey } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
    const api = srv.client(apiKey.token);
    await api.POST("/teams", { body: { key: "OPS", name: "Operations" } });
    await api.POST("/issues", { body: { team: "ENG", title: "Engineering work" } });
    await api.POST("/issues", { body: { team: "OPS", title: "Operations work" } });
    const guest = await srv.addMember(apiKey.token, "guest", "guest@example.com");
    await api.POST("/teams/{key}/members", {
      params: { path: { key: "ENG" } },
      body: { userId: guest.userId },
    });

    let current = await list(guest.token, "");
    expect(JSON.parse(current.text).issues.map((i: { title: string }) => i.title)).toEqual([
      "Engineering work",
    ]);
    expect((await list(guest.token, "", current.etag)).status).toBe(304);

    await api.POST("/teams/{key}/members", {
      params: { path: { key: "OPS" } },
      body: { userId: guest.userId },
    });
    const added = await list(guest.token, "", current.etag);
    expect(added.status).toBe(200);
    expect(JSON.parse(added.text).issues).toHaveLength(2);
    current = added;

    await api.DELETE("/teams/{key}/members/{userId}", {
      params: { path: { key: "OPS", userId: guest.userId } },
    });
    const removed = await list(guest.token, "", current.etag);
    expect(removed.status).toBe(200);
    expect(JSON.parse(removed.text).issues).toHaveLength(1);

    await api.PATCH("/members/{userId}", {
      params: { path: { userId: guest.userId } },
      body: { role: "member" },
    });
    const member = await list(guest.token, "", removed.etag);
    expect(member.status).toBe(200);
    expect(JSON.parse(member.text).issues).toHaveLength(2);
  });

  it("keeps the hash of the answer for lists that move with the clock (stale, the current cycle)", async () => {
    const { apiKey } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
    await srv
      .client(apiKey.token)
      .POST("/issues", { body: { team: "ENG", title: "One", dueDate: "2020-01-01" } });
    expect(versionTagApplies({ team: "ENG", cycle: "current" })).toBe(false);
    for (const query of ["special=stale"]) {
      const first = await list(apiKey.token, query);
      expect(first.status, query).toBe(200);
      expect(first.etag, query).not.toMatch(/^W\/"l\./);
      expect((await list(apiKey.token, query, first.etag)).status).toBe(304);
    }
    // Overdue moves with the date, which its tag holds.
    const overdue = await list(apiKey.token, "special=overdue");
    expect(overdue.etag).toMatch(/^W\/"l\./);
  });
});
