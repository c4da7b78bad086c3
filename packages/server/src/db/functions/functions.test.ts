import pg from "pg";
import { describe, expect, it } from "vitest";
import { useTestServer } from "../../test/harness.js";
import * as blockers from "./issue-blockers.js";
import * as labelIds from "./issue-label-ids.js";
import * as labelPostings from "./issue-label-postings.js";
import * as searchBits from "./issue-search-bits.js";
import * as searchRecent from "./issue-search-recent.js";
import * as searchVector from "./issue-search-vector.js";
import * as sortKeys from "./issue-sort-keys.js";
import * as projectIssueCounts from "./project-issue-counts.js";
import * as projectTeamIds from "./project-team-ids.js";
import * as teamStateCounts from "./team-state-counts.js";
import * as namesVersion from "./workspace-names-version.js";

const statements = [
  blockers,
  labelIds,
  labelPostings,
  searchBits,
  searchRecent,
  searchVector,
  sortKeys,
  projectIssueCounts,
  projectTeamIds,
  teamStateCounts,
  namesVersion,
].flatMap((file) =>
  Object.values(file)
    // A file's exports: statements, lists of statements, and objects of statements.
    .flatMap((v: unknown) =>
      typeof v === "object" && v !== null && !Array.isArray(v) ? Object.values(v) : v,
    )
    .filter((s): s is string => typeof s === "string"),
);

const FUNCTION = /create (?:or replace )?function (\w+)\(/;
const TRIGGER = /create trigger "?(\w+)"? .*? on (\w+)/s;

const srv = useTestServer();

describe("src/db/functions", () => {
  it("holds every function of the migrated database as it stands", async () => {
    const functions = statements.filter((s) => FUNCTION.test(s));
    expect(functions.length).toBeGreaterThan(10);
    const db = new pg.Client({ connectionString: srv.databaseUrl });
    await db.connect();
    try {
      await db.query("begin");
      await db.query("create schema function_files");
      // Each definition made again beside the migrated one, then both compared as PostgreSQL keeps them.
      for (const statement of functions)
        await db.query(statement.replace(FUNCTION, (_, name) => `create function function_files.${name}(`));
      const { rows } = await db.query<{ name: string; schema: string; definition: string }>(
        `select p.proname as name, n.nspname as schema,
                concat_ws(' | ', pg_get_function_identity_arguments(p.oid), pg_get_function_result(p.oid),
                          p.provolatile, p.proparallel, p.proisstrict, l.lanname, p.prosrc) as definition
           from pg_proc p join pg_namespace n on n.oid = p.pronamespace join pg_language l on l.oid = p.prolang
          where n.nspname in ('public', 'function_files') and p.proname = any($1::text[])`,
        [functions.map((s) => FUNCTION.exec(s)![1])],
      );
      for (const statement of functions) {
        const name = FUNCTION.exec(statement)![1];
        const migrated = rows.find((r) => r.name === name && r.schema === "public");
        const fromFile = rows.find((r) => r.name === name && r.schema === "function_files");
        expect(migrated, name).toBeDefined();
        expect(migrated?.definition, name).toBe(fromFile?.definition);
      }
    } finally {
      await db.query("rollback");
      await db.end();
    }
  });

  it("names every trigger of the migrated database's tables that a file defines", async () => {
    const triggers = statements.filter((s) => TRIGGER.test(s) && !FUNCTION.test(s));
    for (const statement of triggers) {
      const [, name, table] = TRIGGER.exec(statement)!;
      const found = await srv.query(
        "select 1 from pg_trigger t join pg_class c on c.oid = t.tgrelid where t.tgname = $1 and c.relname = $2",
        [name, table],
      );
      expect(found.length, name).toBe(1);
    }
  });
});
