import { beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, useTestServer } from "../../../test/harness.js";
import { brokenInvariants } from "../../../test/invariants.js";
import { pruneSearchRecent } from "./search-recent.query.js";

/**
 * A plain search sorted by `updated` (`isRecentSearch`) is answered from the recent issues, from the newest
 * rows of the covering index and their search bits, or from the GIN index, whichever first holds the page.
 * Each must give exactly what the full-text match gives, in the list's order, whatever the page.
 */
const srv = useTestServer();
let api: ApiClient;
let wsId = "";

const WORDS = ["crash", "report", "login", "timeout", "export", "cache", "o'brien", "c:\\temp", "deploy"];

beforeAll(async () => {
  const boot = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  api = srv.client(boot.apiKey.token);
  wsId = boot.workspace.id;
  // 90 issues whose words follow a fixed pattern, so some pairs are common and some rare.
  for (let n = 0; n < 90; n++) {
    const words = WORDS.filter((_, w) => (n * (w + 3)) % (w + 2) === 0);
    const res = await api.POST("/issues", {
      body: {
        team: "ENG",
        title: `Issue ${n} ${words.slice(0, 2).join(" ")}`,
        description: words.slice(2).join(" and ") || null,
        priority: 0,
      },
    });
    if (!res.data) throw new Error(`create failed: ${JSON.stringify(res.error)}`);
  }
  // Updates spread over the past, with ties (same minute for groups of three).
  await srv.query(
    `update issues set updated_at = now() - make_interval(mins => ((number * 37) % 90) / 3)
      where workspace_id = $1`,
    [wsId],
  );
});

/** The identifiers matching `q`, in the list's default order, straight from the stored vectors. */
async function expected(q: string): Promise<string[]> {
  const rows = await srv.query<{ identifier: string }>(
    `select t.key || '-' || i.number as identifier
       from issues i join teams t on t.id = i.team_id
      where i.workspace_id = $1 and i.search_vector @@ websearch_to_tsquery('english', $2)
      order by i.updated_at desc, i.team_id desc, i.number desc`,
    [wsId, q],
  );
  return rows.map((r) => r.identifier);
}

async function page(q: string, limit: number, offset = 0, sort?: "updated" | "-updated") {
  const res = await api.GET("/issues", { params: { query: { q, limit, offset, sort } } });
  if (!res.data) throw new Error(`list failed: ${res.response.status} ${JSON.stringify(res.error)}`);
  return res.data;
}

describe("search in update order", () => {
  const queries = [
    "crash",
    "crash report",
    "login timeout",
    "crash -report",
    "-crash",
    "export cache",
    "deploy",
    // Branches of `or`: each has its own bits; a third branch, or a lone or quoted "or", has none.
    "crash or login",
    "crash -report or login timeout",
    "crash or login or deploy",
    "login or",
    "export OR timeout cache",
  ];

  it("gives every page exactly as the full-text match orders it, from either index", async () => {
    for (const q of queries) {
      const all = await expected(q);
      expect(all.length, q).toBeGreaterThan(0);
      for (const [limit, offset] of [
        [1, 0],
        [2, 0],
        [3, 2],
        [5, 1],
        [50, 0],
        [200, 0],
      ] as const) {
        const got = await page(q, limit, offset);
        expect(
          got.issues.map((i) => i.identifier),
          `${q} limit ${limit} offset ${offset}`,
        ).toEqual(all.slice(offset, offset + limit));
        expect(got.nextOffset).toBe(offset + limit < all.length ? offset + limit : null);
      }
    }
  });

  it("sorts ascending by updated the same way", async () => {
    const all = (await expected("crash")).reverse();
    expect((await page("crash", 3, 0, "updated")).issues.map((i) => i.identifier)).toEqual(all.slice(0, 3));
    expect((await page("crash", 200, 0, "updated")).issues.map((i) => i.identifier)).toEqual(all);
  });

  it("finds words with quotes and backslashes, and nothing for stop words alone", async () => {
    for (const q of ["o'brien", "c:\\temp", "o'brien crash"]) {
      const all = await expected(q);
      expect(all.length, q).toBeGreaterThan(0);
      expect(
        (await page(q, 1)).issues.map((i) => i.identifier),
        q,
      ).toEqual(all.slice(0, 1));
      expect(
        (await page(q, 200)).issues.map((i) => i.identifier),
        q,
      ).toEqual(all);
    }
    expect((await page("the and of", 5)).issues).toEqual([]);
  });

  it("finds an issue by the words of its new title or description right after the edit", async () => {
    const first = (await page("deploy", 1)).issues[0]!;
    const renamed = await api.PATCH("/issues/{identifier}", {
      params: { path: { identifier: "ENG-2" } },
      body: { title: "Zeppelin hangar", description: "dirigible mooring" },
    });
    expect(renamed.response.status).toBe(200);
    // Just updated, so the newest: found from the newest rows' bits, and no longer under its old words.
    expect((await page("zeppelin mooring", 1)).issues.map((i) => i.identifier)).toEqual(["ENG-2"]);
    expect((await page("zeppelin", 200)).issues.map((i) => i.identifier)).toEqual(["ENG-2"]);
    expect(await expected("issue 2")).not.toContain("ENG-2");
    expect((await page("deploy", 1)).issues[0]!.identifier).toBe(first.identifier);
  });

  it("finds quoted phrases exactly, through the word pairs of the vector", async () => {
    // Words that stand together in some issues and apart in others; a stop word between two words is a gap.
    for (const [n, text] of [
      [1, "dark mode toggle"],
      [2, "mode dark toggle"],
      [3, "dark and mode toggle"],
      [4, "the dark, mode"],
      [5, "dark-mode settings"],
      [6, "light mode, dark mode"],
    ] as const) {
      const res = await api.POST("/issues", {
        body: { team: "ENG", title: `Phrase ${n}`, description: text, priority: 0 },
      });
      expect(res.response.status).toBe(201);
    }
    for (const q of [
      '"dark mode"',
      '"mode dark"',
      '"dark the mode"',
      '"dark mode" toggle',
      'toggle -"dark mode"',
      'toggle - "dark mode"',
      '"dark mode" or settings',
      '"dark-mode"',
      '"light mode dark"',
      '""dark mode""',
      '"dark mode',
    ]) {
      const all = await expected(q);
      expect(
        (await page(q, 200)).issues.map((i) => i.identifier),
        q,
      ).toEqual(all);
      expect(
        (await page(q, 200, 0, "updated")).issues.map((i) => i.identifier),
        q,
      ).toEqual(all.reverse());
    }
    expect((await expected('"dark mode"')).length).toBe(4); // 1, 4 (comma), 5 (hyphen), 6
    // The pairs are lexemes of the stored vector; the phrase query requires them.
    const [pairs] = await srv.query<{ query: string }>(
      `select tracker_phrase_query(websearch_to_tsquery('english', '"dark mode" toggle'), '{dark mode}')::text as query`,
    );
    expect(pairs!.query).toContain("'dark mode'");
  });

  it("never asks a match for bits it lacks, whatever the query", async () => {
    // Every issue matching the query holds the bits all branches require, and those of one of its branches.
    const holds = (first: number) =>
      [0, 1, 2, 3].map((n) => `(i.search_bits_${n} & x.m[${first + n}]) = x.m[${first + n}]`).join(" and ");
    for (const q of [
      "crash report",
      "crash or login",
      '"dark mode" or crash -"light mode" report',
      "crash -report or login",
      "crash or login or deploy",
      "o'brien or c:\\temp",
      "-crash",
      '"crash report" or export',
      "the or crash",
      '"crash or report"',
    ]) {
      const [row] = await srv.query<{ matches: number; missed: number; masked: boolean }>(
        `select count(*)::int as matches,
                count(*) filter (where not (${holds(1)} and (${holds(5)} or ${holds(9)})))::int as missed,
                bool_or(x.m <> array_fill(0::bigint, array[12])) as masked
           from issues i, (select tracker_search_masks(websearch_to_tsquery('english', $2)) as m) x
          where i.workspace_id = $1 and i.search_vector @@ websearch_to_tsquery('english', $2)`,
        [wsId, q],
      );
      expect(row!.missed, q).toBe(0);
      // A negation alone and more than two branches ask for no bits; the quoted "or" matches nothing here.
      if (!["-crash", "crash or login or deploy", '"crash or report"'].includes(q)) {
        expect(row!.matches, q).toBeGreaterThan(0);
        expect(row!.masked, q).toBe(true);
      }
    }
  });

  it("keeps every issue's search bits equal to its stored vector's", async () => {
    const [row] = await srv.query<{ drifted: number }>(
      `select count(*)::int as drifted from issues
        where array[search_bits_0, search_bits_1, search_bits_2, search_bits_3]
              <> tracker_search_bits(tsvector_to_array(
                   to_tsvector('english', title) || to_tsvector('english', coalesce(description, ''))))`,
    );
    expect(row!.drifted).toBe(0);
    const [bits] = await srv.query<{ set: number }>(
      `select count(*)::int as set from issues
        where workspace_id = $1 and search_bits_0 | search_bits_1 | search_bits_2 | search_bits_3 <> 0`,
      [wsId],
    );
    expect(bits!.set).toBe(96);
  });

  it("answers from the recent issues only since the workspace's cut, after a prune and later writes", async () => {
    const andQueries = [
      "crash report",
      "login timeout",
      "export cache",
      "crash -report timeout",
      "deploy crash",
    ];
    const before = await Promise.all(andQueries.map((q) => expected(q)));
    expect(await pruneSearchRecent(srv.running.orm.em.fork() as never, 10)).toBeGreaterThan(60);
    const [cut] = await srv.query<{ kept: number; older: number }>(
      `select (select count(*)::int from issue_search_recent r where r.workspace_id = $1) as kept,
              (select count(*)::int from issues i where i.workspace_id = $1
                  and i.updated_at >= (select since from issue_search_recent_since where workspace_id = $1)
                  and not exists (select 1 from issue_search_recent r where r.issue_id = i.id)) as older`,
      [wsId],
    );
    expect(cut!.kept).toBeGreaterThanOrEqual(10); // ties at the cut stay
    expect(cut!.kept).toBeLessThan(20);
    expect(cut!.older).toBe(0);
    for (const [n, q] of andQueries.entries()) {
      expect(await expected(q), q).toEqual(before[n]);
      for (const limit of [1, 2, 5, 50, 200]) {
        const got = await page(q, limit);
        expect(
          got.issues.map((i) => i.identifier),
          `${q} limit ${limit}`,
        ).toEqual(before[n]!.slice(0, limit));
      }
    }
    // An issue edited after the cut is recent again, and found first.
    const [oldest] = await srv.query<{ number: number }>(
      `select number from issues i where workspace_id = $1
          and not exists (select 1 from issue_search_recent r where r.issue_id = i.id)
        order by updated_at limit 1`,
      [wsId],
    );
    const edited = await api.PATCH("/issues/{identifier}", {
      params: { path: { identifier: `ENG-${oldest!.number}` } },
      body: { title: "Airship crash report" },
    });
    expect(edited.response.status).toBe(200);
    expect((await page("crash report", 1)).issues.map((i) => i.identifier)).toEqual([
      `ENG-${oldest!.number}`,
    ]);
    expect((await page("crash report", 200)).issues.map((i) => i.identifier)).toEqual(
      await expected("crash report"),
    );
    expect(await brokenInvariants(srv)).toEqual({});
  });
});
