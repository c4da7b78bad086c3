import { afterEach, describe, expect, it } from "vitest";
import { driftedTeamStateCounts } from "../../../test/derived-counts.js";
import { useTestServer } from "../../../test/harness.js";

const srv = useTestServer();

async function setup() {
  const { apiKey, user } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  const member = await srv.addMember(apiKey.token, "member");
  const guest = await srv.addMember(apiKey.token, "guest");
  await srv.client(apiKey.token).POST("/teams/{key}/members", {
    params: { path: { key: "ENG" } },
    body: { userId: guest.userId },
  });
  return {
    admin: srv.client(apiKey.token),
    adminId: user.id,
    member: { ...member, api: srv.client(member.token) },
    guest: { ...guest, api: srv.client(guest.token) },
  };
}

const del = (api: ReturnType<typeof srv.client>, identifier: string) =>
  api.DELETE("/issues/{identifier}", { params: { path: { identifier } } });

describe("deleteIssue", () => {
  it("removes the issue with its comments, relations and history; its sub-issues stay without a parent", async () => {
    const { admin, member } = await setup();
    const doomed = (await member.api.POST("/issues", { body: { team: "ENG", title: "Doomed" } })).data!.issue;
    const other = (await admin.POST("/issues", { body: { team: "ENG", title: "Stays" } })).data!.issue;
    const child = (
      await admin.POST("/issues", { body: { team: "ENG", title: "Child", parent: doomed.identifier } })
    ).data!.issue;
    const path = { params: { path: { identifier: doomed.identifier } } };
    await admin.POST("/issues/{identifier}/comments", { ...path, body: { body: "A comment" } });
    await admin.POST("/issues/{identifier}/relations", {
      ...path,
      body: { issue: other.identifier, type: "blocks" },
    });

    // Its creator (a member) may delete it.
    const res = await del(member.api, doomed.identifier);
    expect(res.response.status).toBe(200);
    expect((await admin.GET("/issues/{identifier}", path)).response.status).toBe(404);
    expect((await admin.GET("/issues/{identifier}/history", path)).response.status).toBe(404);
    const list = (await admin.GET("/issues", { params: { query: { team: "ENG" } } })).data!.issues;
    expect(list.map((i) => i.identifier).sort()).toEqual([child.identifier, other.identifier].sort());
    const left = await srv.query<{ comments: number; relations: number; activity: number }>(
      `select (select count(*)::int from comments where issue_id = $1) as comments,
              (select count(*)::int from issue_relations where issue_id = $1 or related_issue_id = $1) as relations,
              (select count(*)::int from activity_events where issue_id = $1) as activity`,
      [doomed.id],
    );
    expect(left).toEqual([{ comments: 0, relations: 0, activity: 0 }]);
    const kid = (
      await admin.GET("/issues/{identifier}", { params: { path: { identifier: child.identifier } } })
    ).data!.issue;
    expect(kid.parentId).toBeNull();
    // The blocked issue no longer counts it as a blocker.
    const stays = (
      await admin.GET("/issues/{identifier}", { params: { path: { identifier: other.identifier } } })
    ).data!.issue;
    expect(stays.relations).toEqual([]);
    // The number is not given out again.
    const next = (await admin.POST("/issues", { body: { team: "ENG", title: "Next" } })).data!.issue;
    expect(next.identifier).toBe("ENG-4");
  });

  it("refuses a member who did not create it and a guest, changing nothing; admins may", async () => {
    const { admin, member, guest } = await setup();
    const issue = (await admin.POST("/issues", { body: { team: "ENG", title: "Not yours" } })).data!.issue;
    for (const who of [member, guest]) {
      const res = await del(who.api, issue.identifier);
      expect(res.response.status).toBe(403);
      expect(res.error).toMatchObject({ code: "forbidden" });
    }
    const still = await admin.GET("/issues/{identifier}", {
      params: { path: { identifier: issue.identifier } },
    });
    expect(still.data!.issue.title).toBe("Not yours");
    const byGuest = (await guest.api.POST("/issues", { body: { team: "ENG", title: "Guest's own" } })).data!
      .issue;
    expect((await del(guest.api, byGuest.identifier)).response.status).toBe(200);
    expect((await del(admin, issue.identifier)).response.status).toBe(200);
    expect((await del(admin, issue.identifier)).response.status).toBe(404);
  });
});

// Whatever was deleted, the teams' per-state counts (a board's columns read them) match their issues.
afterEach(async () => {
  expect(await driftedTeamStateCounts(srv)).toEqual([]);
});
