#!/usr/bin/env node
/**
 * The GIN fast-update list, measured (README.md, "The full-text index's fast-update list"):
 * `node build/bench/gin-list.js --data-dir <a bench cluster> [--issues 1000000] [--inserts 8000]`, or with
 * DATABASE_URL pointing at a server holding `bench_<issues>`. Copies the seeded database to a scratch one,
 * then for each setting of `issues_search_vector_index` (in turn, twice) creates issues from 4 connections,
 * one a transaction as `POST /issues` does, while a fifth runs a search for a word no issue has every 20 ms
 * (its cost is the fast-update list it reads, plus one lookup). Prints a table; drops the copy.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "../src/db/embedded-postgres.js";

const { values: args } = parseArgs({
  options: {
    "data-dir": { type: "string" },
    issues: { type: "string", default: "1000000" },
    inserts: { type: "string", default: "8000" },
  },
});
const INSERTS = Number(args.inserts);
const WRITERS = 4;
const SETTINGS = [
  "fastupdate = on, gin_pending_list_limit = 4096",
  "fastupdate = on, gin_pending_list_limit = 256",
  "fastupdate = off",
];
const INDEX = "issues_search_vector_index";
const log = (msg: string) => process.stderr.write(`[gin-list] ${msg}\n`);

interface Measured {
  setting: string;
  perSecond: number;
  insertMs: { p50: number; p99: number; max: number };
  searchMs: { mean: number; p99: number };
  listPages: { mean: number; max: number };
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

/** Titles and descriptions from the seed's words, a fifth of them words no other issue has. */
function textMaker(seedWords: string[]) {
  const letters = "abcdefghijklmnoprstuvw";
  const rare = Array.from({ length: 20_000 }, () =>
    Array.from(
      { length: 5 + Math.floor(Math.random() * 4) },
      () => letters[Math.floor(Math.random() * 22)],
    ).join(""),
  );
  const word = () =>
    Math.random() < 0.2
      ? rare[Math.floor(Math.random() * rare.length)]!
      : seedWords[Math.floor(Math.random() * seedWords.length)]!;
  const words = (n: number) => Array.from({ length: n }, word).join(" ");
  return { title: () => words(6), description: () => words(34) };
}

async function measure(
  url: string,
  setting: string,
  template: string,
  firstNumber: number,
  seedWords: string[],
) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`alter index ${INDEX} set (${setting})`);
  await admin.query(`select gin_clean_pending_list('${INDEX}')`);
  const text = textMaker(seedWords);
  let started = 0;
  let number = firstNumber;
  const insertMs: number[] = [];
  const searchMs: number[] = [];
  const listPages: number[] = [];
  const t0 = performance.now();
  const connected = async (work: (client: pg.Client) => Promise<void>) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await work(client);
    } finally {
      await client.end();
    }
  };
  const writer = (client: pg.Client) =>
    (async () => {
      while (started < INSERTS) {
        started++;
        const t = performance.now();
        await client.query(
          `insert into issues (id, workspace_id, team_id, number, title, description, priority, estimate, due_date,
             state_id, state_type, assignee_id, creator_id, project_id, cycle_id, created_at, updated_at)
           select gen_random_uuid(), workspace_id, team_id, $2, $3, $4, priority, estimate, due_date, state_id,
             state_type, assignee_id, creator_id, project_id, cycle_id, now(), now()
           from issues where id = $1`,
          [template, number++, text.title(), text.description()],
        );
        insertMs.push(performance.now() - t);
      }
    })();
  const searcher = (client: pg.Client) =>
    (async () => {
      await client.query("set enable_seqscan = off");
      while (started < INSERTS) {
        const t = performance.now();
        await client.query(
          `select count(*) from issues where search_vector @@ to_tsquery('english', 'xyzzyplugh')`,
        );
        searchMs.push(performance.now() - t);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
  const sampler = async () => {
    while (started < INSERTS) {
      const { rows } = await admin.query(`select pending_pages from pgstatginindex('${INDEX}')`);
      listPages.push(Number(rows[0].pending_pages));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  await Promise.all([
    ...Array.from({ length: WRITERS }, () => connected(writer)),
    connected(searcher),
    sampler(),
  ]);
  const seconds = (performance.now() - t0) / 1000;
  await admin.end();
  const measured: Measured = {
    setting,
    perSecond: INSERTS / seconds,
    insertMs: { p50: quantile(insertMs, 0.5), p99: quantile(insertMs, 0.99), max: Math.max(...insertMs) },
    searchMs: { mean: mean(searchMs), p99: quantile(searchMs, 0.99) },
    listPages: { mean: mean(listPages), max: Math.max(...listPages) },
  };
  log(JSON.stringify(measured));
  return measured;
}

async function main() {
  let embedded: EmbeddedPostgres | undefined;
  let baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    if (!args["data-dir"]) throw new Error("give --data-dir (a bench cluster) or DATABASE_URL");
    embedded = await startEmbeddedPostgres({ dataDir: path.resolve(args["data-dir"]), durable: true });
    baseUrl = embedded.url;
  }
  const source = `bench_${Number(args.issues)}`;
  const scratch = `${source}_gin_list`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  const url = new URL(baseUrl);
  url.pathname = `/${scratch}`;
  try {
    log(`copying ${source}`);
    await admin.query(`drop database if exists ${scratch}`);
    await admin.query(`create database ${scratch} template ${source}`);
    const db = new pg.Client({ connectionString: url.toString() });
    await db.connect();
    await db.query("create extension if not exists pgstattuple");
    const template = (await db.query("select id from issues where description is not null limit 1")).rows[0]
      .id;
    const firstNumber = Number((await db.query("select max(number) from issues")).rows[0].max) + 1;
    const seedWords = [
      ...new Set(
        (
          await db.query("select title || ' ' || coalesce(description, '') as text from issues limit 3000")
        ).rows
          .flatMap((row: { text: string }) => row.text.toLowerCase().split(/[^a-z]+/))
          .filter((w: string) => w.length >= 3),
      ),
    ];
    await db.end();
    const results: Measured[] = [];
    for (let round = 0; round < 2; round++)
      for (const [i, setting] of SETTINGS.entries())
        results.push(
          await measure(
            url.toString(),
            setting,
            template,
            firstNumber + (round * 3 + i) * INSERTS,
            seedWords,
          ),
        );
    const f = (n: number) => n.toFixed(n < 10 ? 2 : 0);
    const lines = [
      `${INSERTS} issues created from ${WRITERS} connections into a copy of ${source}, each setting twice; a`,
      "search for a word no issue has every 20 ms while they are written; the list's size sampled every 100 ms.",
      "",
      "| setting | issues/s | insert ms p50 / p99 / max | search ms mean / p99 | list pages mean / max |",
      "|---|---:|---|---|---|",
      ...results.map(
        (r) =>
          `| ${r.setting} | ${f(r.perSecond)} | ${f(r.insertMs.p50)} / ${f(r.insertMs.p99)} / ${f(r.insertMs.max)} | ${f(r.searchMs.mean)} / ${f(r.searchMs.p99)} | ${f(r.listPages.mean)} / ${r.listPages.max} |`,
      ),
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  } finally {
    await admin.query(`drop database if exists ${scratch}`).catch(() => {});
    await admin.end();
    await embedded?.stop();
  }
}

await main();
