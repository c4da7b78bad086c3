import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { driftedProjectCounts, driftedTeamStateCounts } from "../../../test/derived-counts.js";
import { Stream } from "../../../test/event-stream.js";
import { type ApiClient, useTestServer } from "../../../test/harness.js";

const dataDir = mkdtempSync(path.join(os.tmpdir(), "tracker-archive-"));
const srv = useTestServer({
  dataDir,
  attachments: { maxBytes: 64 * 1024, s3: undefined, urlSecret: "archive-test-url-key" },
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function setup() {
  const boot = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  const token = boot.apiKey.token;
  const api = srv.client(token);
  await api.PATCH("/teams/{key}", { params: { path: { key: "ENG" } }, body: { cyclesEnabled: true } });
  const cycle = (await api.POST("/cycles", { body: { team: "ENG" } as never })).data!;
  await api.POST("/projects", { body: { name: "Orbit", teams: ["ENG"] } });
  const make = async (title: string, extra: Record<string, unknown> = {}) =>
    (await api.POST("/issues", { body: { team: "ENG", title, ...extra } })).data!.issue;
  const kept = await make("Kept in the list", { project: "Orbit", cycle: cycle.cycle.number });
  const doomed = await make("Archive this search word", {
    project: "Orbit",
    cycle: cycle.cycle.number,
    labels: ["Bug"],
  });
  return { ...boot, token, api, make, cycleNumber: cycle.cycle.number, kept, doomed };
}

const at = (identifier: string) => ({ params: { path: { identifier } } });
const archive = (api: ApiClient, identifier: string) =>
  api.POST("/issues/{identifier}/archive", at(identifier));
const unarchive = (api: ApiClient, identifier: string) =>
  api.POST("/issues/{identifier}/unarchive", at(identifier));
const listed = async (api: ApiClient, query: Record<string, unknown> = {}) =>
  (await api.GET("/issues", { params: { query: { team: "ENG", ...query } as never } })).data!.issues.map(
    (i) => i.identifier,
  );
const orbit = async (api: ApiClient) =>
  (await api.GET("/projects")).data!.projects.find((p) => p.name === "Orbit")!.progress;

describe("archiving an issue", () => {
  it("hides it from lists, search, its cycle and project progress, and its parent's sub-issues; archived=true lists it; unarchive restores", async () => {
    const { api, make, cycleNumber, kept, doomed } = await setup();
    const child = await make("A sub-issue", { parent: kept.identifier });
    await api.PATCH("/issues/{identifier}", { ...at(doomed.identifier), body: { state: "Done" } });
    expect(await orbit(api)).toMatchObject({ done: 1, total: 2 });

    const res = await archive(api, doomed.identifier);
    expect(res.response.status).toBe(200);
    const archivedAt = res.data!.issue.archivedAt;
    expect(archivedAt).toMatch(/Z$/);
    expect(res.data!.issue.identifier).toBe(doomed.identifier);

    // Gone from every list: plain, the cycle's, the project's, a search and a saved view's filters.
    expect((await listed(api)).sort()).toEqual([child.identifier, kept.identifier].sort());
    expect(await listed(api, { cycle: String(cycleNumber) })).toEqual([kept.identifier]);
    expect(await listed(api, { project: "Orbit" })).toEqual([kept.identifier]);
    expect(await listed(api, { q: "search word" })).toEqual([]);
    expect(await listed(api, { q: doomed.identifier })).toEqual([]);
    expect(await listed(api, { stateType: ["completed"] })).toEqual([]);
    // Without a team: the label's walk of its newest issues and a one-word search's scan, each a first
    // source of its own (list/label-walk.ts, list/search.ts).
    const everywhere = async (query: Record<string, unknown>) =>
      (await api.GET("/issues", { params: { query: query as never } })).data!.issues.map((i) => i.identifier);
    expect(await everywhere({ label: ["Bug"] })).toEqual([]);
    expect(await everywhere({ q: "search" })).toEqual([]);
    expect(await everywhere({ q: "search word" })).toEqual([]);
    // The project's progress leaves it out, and the stored counts agree with a fresh count.
    expect(await orbit(api)).toMatchObject({ done: 0, total: 1, percent: 0 });
    expect(await driftedProjectCounts(srv)).toEqual([]);
    expect(await driftedTeamStateCounts(srv)).toEqual([]);

    // Asked for: only archived, or both.
    expect(await listed(api, { archived: "true" })).toEqual([doomed.identifier]);
    expect(await listed(api, { archived: "true", q: "search word" })).toEqual([doomed.identifier]);
    expect((await listed(api, { archived: "any" })).sort()).toEqual(
      [child.identifier, kept.identifier, doomed.identifier].sort(),
    );
    const bad = await api.GET("/issues", { params: { query: { archived: "maybe" as never } } });
    expect(bad.response.status).toBe(400);

    // Still read, with its archivedAt; idempotent archive changes nothing.
    const read = await api.GET("/issues/{identifier}", at(doomed.identifier));
    expect(read.data!.issue).toMatchObject({ title: doomed.title, archivedAt });
    const again = await archive(api, doomed.identifier);
    expect(again.response.status).toBe(200);
    expect(again.data!.issue).toEqual(res.data!.issue);
    // An update of an archived issue is allowed and leaves it archived.
    const edited = await api.PATCH("/issues/{identifier}", {
      ...at(doomed.identifier),
      body: { priority: 1 },
    });
    expect(edited.data!.issue).toMatchObject({ priority: 1, archivedAt });

    // A parent's sub-issues leave an archived one out.
    await archive(api, child.identifier);
    expect((await api.GET("/issues/{identifier}", at(kept.identifier))).data!.issue.subIssues).toEqual([]);
    expect((await api.GET("/issues/{identifier}/page-data", at(kept.identifier))).data!.subIssues).toEqual(
      [],
    );
    await unarchive(api, child.identifier);
    expect(
      (await api.GET("/issues/{identifier}", at(kept.identifier))).data!.issue.subIssues.map(
        (s) => s.identifier,
      ),
    ).toEqual([child.identifier]);

    // Unarchive restores it everywhere.
    const back = await unarchive(api, doomed.identifier);
    expect(back.response.status).toBe(200);
    expect(back.data!.issue.archivedAt).toBeNull();
    expect(await listed(api, { q: "search word" })).toEqual([doomed.identifier]);
    expect(await everywhere({ label: ["Bug"] })).toEqual([doomed.identifier]);
    expect(await everywhere({ q: "search" })).toEqual([doomed.identifier]);
    expect(await listed(api, { cycle: String(cycleNumber) })).toContain(doomed.identifier);
    expect(await listed(api, { archived: "true" })).toEqual([]);
    expect(await orbit(api)).toMatchObject({ done: 1, total: 2 });
    expect(await driftedProjectCounts(srv)).toEqual([]);
    expect(await driftedTeamStateCounts(srv)).toEqual([]);
    // Unarchiving an issue that is not archived changes nothing.
    const twice = await unarchive(api, doomed.identifier);
    expect(twice.data!.issue).toEqual(back.data!.issue);
  });

  it("keeps the issue's history: archive and unarchive with their actor, recorded once", async () => {
    const { api, user, doomed } = await setup();
    await archive(api, doomed.identifier);
    await archive(api, doomed.identifier);
    await unarchive(api, doomed.identifier);
    const history = (await api.GET("/issues/{identifier}/history", at(doomed.identifier))).data!.events;
    expect(history.map((e) => [e.type, e.actor?.id])).toEqual([
      ["issue_created", user.id],
      ["issue_archived", user.id],
      ["issue_unarchived", user.id],
    ]);
  });

  it("refuses a read key (403) and hides another workspace's issue (404), changing nothing", async () => {
    const { api, doomed } = await setup();
    const reader = (await api.POST("/api-keys", { body: { name: "reader", access: "read" } })).data!.key;
    const refused = await archive(srv.client(reader.token), doomed.identifier);
    expect(refused.response.status).toBe(403);
    expect(refused.error).toMatchObject({ code: "insufficient_access" });

    // A guest outside the team does not see the issue: 404, as for any write to it.
    const { apiKey } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
    const adminApi = srv.client(apiKey.token);
    const guest = await srv.addMember(apiKey.token, "guest");
    const hidden = (await adminApi.POST("/issues", { body: { team: "ENG", title: "Not the guest's" } })).data!
      .issue;
    expect((await archive(srv.client(guest.token), hidden.identifier)).response.status).toBe(404);
    expect(
      (await adminApi.GET("/issues/{identifier}", at(hidden.identifier))).data!.issue.archivedAt,
    ).toBeNull();

    // The first workspace's issue, from the second: not found, and still not archived.
    const elsewhere = await archive(adminApi, doomed.identifier);
    expect(elsewhere.response.status).toBe(404);
    expect((await api.GET("/issues/{identifier}", at(doomed.identifier))).data!.issue.archivedAt).toBeNull();
    const history = (await api.GET("/issues/{identifier}/history", at(doomed.identifier))).data!.events;
    expect(history.map((e) => e.type)).toEqual(["issue_created"]);
  });

  it("keeps its attachments downloadable", async () => {
    const { token, api, doomed } = await setup();
    const up = await srv.fetch(
      new Request(`${srv.url}/api/v1/issues/${doomed.identifier}/attachments?filename=trace.txt`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "text/plain" },
        body: "a trace\n",
      }),
    );
    expect(up.status).toBe(201);
    await archive(api, doomed.identifier);
    const media = (await api.GET("/issues/{identifier}", at(doomed.identifier))).data!.issue.media;
    expect(media.map((m) => m.title)).toEqual(["trace.txt"]);
    const file = await srv.fetch(new Request(new URL(media[0]!.url, srv.url)));
    expect(file.status).toBe(200);
    expect(await file.text()).toBe("a trace\n");
  });

  it("announces the change on the live stream as the issue updated", async () => {
    const { token, api, doomed } = await setup();
    const live = new Stream(srv.url, token);
    await live.opened();
    try {
      await archive(api, doomed.identifier);
      await expect
        .poll(() => live.changeBodies().filter((e) => e.entity === "issue"))
        .toEqual([expect.objectContaining({ action: "updated", identifier: doomed.identifier })]);
      await unarchive(api, doomed.identifier);
      await expect.poll(() => live.changeBodies().filter((e) => e.entity === "issue").length).toBe(2);
    } finally {
      live.close();
    }
  });
});
