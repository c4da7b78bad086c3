import { randomUUID } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { operations } from "@tracker/sdk/schema";
import { beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, useTestServer } from "../../../test/harness.js";
import { brokenInvariants } from "../../../test/invariants.js";
import { insertTeam } from "../../teams/team.service.js";
import { LABEL_WALK_ROWS } from "./label-walk.js";

/**
 * A list filtered by one or two labels in `updated` order walks the first label's newest issues
 * (`labelWalkSource`) and, when they hold too few matches, falls back to the GIN index. Every page must be
 * exactly what the labels' links give, in the list's order, for every caller's teams, whichever source told
 * it; and the postings the walk reads must follow every write to an issue.
 */
type ListQuery = NonNullable<operations["listIssues"]["parameters"]["query"]>;

const srv = useTestServer();
let wsId = "";
const users: Record<string, string> = {};
const clients: Record<string, ApiClient> = {};
const teamIds: Record<string, string> = {};

/** Issues inserted, numbered g = 1 (newest) .. ISSUES (oldest), two to a second of `updated_at`. */
const ISSUES = 2 * LABEL_WALK_ROWS + 400;
const WIDE_OLD = ISSUES - 200;
/**
 * Label of each issue g:
 * - `wide`: the newest LABEL_WALK_ROWS + 200, the oldest 200, and every 1,000th from the 500th;
 * - `late`: all but the newest LABEL_WALK_ROWS + 200, so `wide` and `late` meet on four issues within
 *   `late`'s walk, too few for a page, and on the oldest 200, past either label's walk: the GIN index must
 *   find them;
 * - `rare`: every 1,000th, fewer postings than a walk reads: its walk reads them all;
 * - `third`: every third, meeting `wide` on a third of its newest issues: the walk finds the page.
 */
const LABELS: Record<string, string> = {
  wide: `g <= ${LABEL_WALK_ROWS + 200} or g > ${WIDE_OLD} or g % 1000 = 500`,
  late: `g > ${LABEL_WALK_ROWS + 200}`,
  rare: "g % 1000 = 0",
  third: "g % 3 = 0",
};

beforeAll(async () => {
  const boot = await srv.bootstrap({ name: "Carol", team: { key: "ENG", name: "Engineering" } });
  wsId = boot.workspace.id;
  clients.admin = srv.client(boot.apiKey.token);
  users.admin = boot.user.id;
  teamIds.ENG = boot.team!.id;
  const alice = await srv.addMember(boot.apiKey.token, "member", "alice@example.com");
  const gus = await srv.addMember(boot.apiKey.token, "guest", "gus@example.com");
  clients.alice = srv.client(alice.token);
  users.alice = alice.userId;
  clients.gus = srv.client(gus.token);
  users.gus = gus.userId;
  const em = () => srv.running.orm.em.fork() as unknown as EntityManager;
  teamIds.OPS = (await insertTeam(em(), wsId, { key: "OPS", name: "Ops" }, users.admin)).id;
  teamIds.ALI = (
    await insertTeam(
      em(),
      wsId,
      { key: "ALI", name: "Alice", personal: true, ownerId: alice.userId },
      alice.userId,
    )
  ).id;
  await srv.query("insert into team_members (id, team_id, user_id, created_at) values ($1, $2, $3, now())", [
    randomUUID(),
    teamIds.OPS,
    gus.userId,
  ]);
  for (const name of Object.keys(LABELS))
    await srv.query(
      "insert into labels (id, workspace_id, name, color, created_at, updated_at) values ($1, $2, $3, '#000000', now(), now())",
      [randomUUID(), wsId, name],
    );
  // Three in five issues in ENG, one in OPS, one in Alice's personal space.
  await srv.query(
    `with g as (
       select g, case g % 5 when 3 then $2::uuid when 4 then $3::uuid else $4::uuid end as team_id
         from generate_series(1, $5::int) g)
     insert into issues (id, workspace_id, team_id, number, title, priority, state_id, state_type,
                         created_at, updated_at)
     select gen_random_uuid(), $1, g.team_id, row_number() over (partition by g.team_id order by g.g desc),
            'Issue ' || g.g, 0, s.id, s.type, now() - interval '30 days',
            date_trunc('second', now()) - make_interval(secs => g.g / 2)
       from g cross join lateral (select id, type from workflow_states ws where ws.team_id = g.team_id
                                   order by position limit 1) s`,
    [wsId, teamIds.OPS, teamIds.ALI, teamIds.ENG, ISSUES],
  );
  await srv.query(
    "update teams t set issue_counter = (select max(number) from issues i where i.team_id = t.id) where t.workspace_id = $1",
    [wsId],
  );
  for (const [name, condition] of Object.entries(LABELS))
    await srv.query(
      `insert into issue_labels (issue_id, label_id)
       select i.id, l.id from issues i join labels l on l.workspace_id = i.workspace_id and l.name = $2
        cross join lateral (select substring(i.title from 7)::int as g) x
        where i.workspace_id = $1 and ${condition}`,
      [wsId, name],
    );
}, 120_000);

/**
 * The identifiers a list of `labels` (and `team`) shows `who`, in its order, straight from the label links
 * and the teams the caller sees.
 */
async function expected(who: string, labels: string[], team?: string, ascending = false): Promise<string[]> {
  const dir = ascending ? "asc" : "desc";
  const rows = await srv.query<{ identifier: string }>(
    `select t.key || '-' || i.number as identifier
       from issues i join teams t on t.id = i.team_id
      where i.workspace_id = $1
        and (select count(*) from issue_labels il join labels l on l.id = il.label_id
              where il.issue_id = i.id and l.name = any($2::text[])) = cardinality($2::text[])
        and ($3::text is null or t.key = $3)
        and case when $5 = 'gus' then exists (select 1 from team_members tm where tm.team_id = t.id and tm.user_id = $4)
                 else not t.personal or t.owner_id = $4 end
      order by i.updated_at ${dir}, i.team_id ${dir}, i.number ${dir}`,
    [wsId, labels, team ?? null, users[who], who],
  );
  return rows.map((r) => r.identifier);
}

async function page(who: string, query: ListQuery) {
  const res = await clients[who]!.GET("/issues", { params: { query } });
  if (!res.data) throw new Error(`list failed: ${res.response.status} ${JSON.stringify(res.error)}`);
  return res.data;
}

/** Every window of `cases` against `expected`: the first pages, a deep one, one issue, the largest page. */
async function expectPages(cases: { who: string; labels: string[]; team?: string; ascending?: boolean }[]) {
  for (const c of cases) {
    const all = await expected(c.who, c.labels, c.team, c.ascending);
    for (const [limit, offset] of [
      [50, 0],
      [50, 50],
      [1, 0],
      [7, 190],
      [200, 0],
    ] as const) {
      const got = await page(c.who, {
        label: c.labels,
        team: c.team,
        sort: c.ascending ? "updated" : undefined,
        limit,
        offset,
      });
      const what = `${JSON.stringify(c)} limit ${limit} offset ${offset}`;
      expect(
        got.issues.map((i) => i.identifier),
        what,
      ).toEqual(all.slice(offset, offset + limit));
      expect(got.nextOffset, what).toBe(offset + limit < all.length ? offset + limit : null);
    }
  }
}

describe("a list filtered by labels in update order", () => {
  it("gives labels that meet too rarely for the walk exactly what their links give", async () => {
    expect((await expected("admin", ["wide", "late"])).length).toBeGreaterThan(100);
    await expectPages([
      { who: "admin", labels: ["wide", "late"] },
      { who: "admin", labels: ["late", "wide"] },
      { who: "admin", labels: ["late", "wide"], ascending: true },
      { who: "admin", labels: ["wide", "late"], team: "ENG" },
      { who: "alice", labels: ["wide", "late"] },
      { who: "gus", labels: ["late", "wide"] },
    ]);
  });

  it("gives a label met rarely, and one with fewer postings than a walk, exactly", async () => {
    await expectPages([
      { who: "admin", labels: ["wide", "rare"] },
      { who: "admin", labels: ["rare"] },
      { who: "alice", labels: ["rare", "third"], ascending: true },
      { who: "gus", labels: ["rare", "wide"] },
    ]);
  });

  it("gives labels that meet often, and one label, exactly, for every caller's teams", async () => {
    await expectPages([
      { who: "admin", labels: ["wide", "third"] },
      { who: "admin", labels: ["third", "wide"], ascending: true },
      { who: "admin", labels: ["late"], team: "OPS" },
      { who: "alice", labels: ["wide"] },
      { who: "alice", labels: ["third"], team: "ALI" },
      { who: "gus", labels: ["third"] },
      { who: "gus", labels: ["wide", "third"], team: "OPS" },
    ]);
    // Alice's personal space is hers: the others' lists never show it, and naming it finds no team.
    const hidden = await clients.admin!.GET("/issues", {
      params: { query: { label: ["third"], team: "ALI" } },
    });
    expect(hidden.response.status).toBe(404);
  });

  it("follows every write: an edit, a label added or removed, a move to another team", async () => {
    const top = async (labels: string[]) =>
      (await page("admin", { label: labels, limit: 3 })).issues.map((i) => i.identifier);
    // An old issue with both labels, edited: it becomes the newest of them.
    const [old] = (await expected("admin", ["wide", "late"])).slice(-1);
    const edit = await clients.admin!.PATCH("/issues/{identifier}", {
      params: { path: { identifier: old! } },
      body: { title: "Edited just now" },
    });
    expect(edit.response.status).toBe(200);
    expect((await top(["wide", "late"]))[0]).toBe(old);
    expect((await top(["late"]))[0]).toBe(old);
    // It loses a label: gone from the pair, still first of the other.
    await clients.admin!.PATCH("/issues/{identifier}", {
      params: { path: { identifier: old! } },
      body: { removeLabels: ["late"] },
    });
    expect(await top(["wide", "late"])).not.toContain(old);
    expect((await top(["wide"]))[0]).toBe(old);
    expect(await top(["late"])).not.toContain(old);
    // It gains two, one of them new to the workspace.
    await clients.admin!.PATCH("/issues/{identifier}", {
      params: { path: { identifier: old! } },
      body: { addLabels: ["rare", "fresh"] },
    });
    expect(await top(["rare", "fresh"])).toEqual([old]);
    expect((await top(["wide", "rare"]))[0]).toBe(old);
    // Moved to OPS: renumbered there, and the team filter follows it.
    const moved = await clients.admin!.POST("/issues/move", { body: { identifiers: [old!], team: "OPS" } });
    expect(moved.response.status).toBe(200);
    const now = moved.data!.moved[0]!.to;
    expect(now).toMatch(/^OPS-/);
    expect(
      (await page("admin", { label: ["rare", "fresh"], team: "OPS" })).issues.map((i) => i.identifier),
    ).toEqual([now]);
    expect((await page("admin", { label: ["rare", "fresh"], team: "ENG" })).issues).toEqual([]);
    expect(await brokenInvariants(srv)).toEqual({});
  });
});
