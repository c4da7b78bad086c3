import { MikroORM } from "@mikro-orm/postgresql";
import { describe, expect, it } from "vitest";
import { useTestServer } from "../test/harness.js";
import { ormOptions } from "./orm.js";

const srv = useTestServer();

describe("migrations", () => {
  it("leave nothing between the entities and the migrated schema", async () => {
    const orm = await MikroORM.init(ormOptions(srv.databaseUrl));
    try {
      const diff = await orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false });
      expect(diff.trim()).toBe("");
      const pending = await orm.getMigrator().getPendingMigrations();
      expect(pending).toEqual([]);
      // The schema comparison above does not see an index's storage options (`with (...)`): compare them here.
      const declared = Object.values(orm.getMetadata().getAll())
        .flatMap((meta) => [...meta.indexes, ...meta.uniques])
        .flatMap((index) => {
          const options = /\bwith \(([^)]*)\)/.exec(
            typeof index.expression === "string" ? index.expression : "",
          );
          return options ? [[index.name, options[1]!.replace(/\s+/g, "").split(",").sort()] as const] : [];
        });
      expect(declared.length).toBeGreaterThan(0);
      const rows: { name: string; options: string[] | null }[] = await orm.em
        .fork()
        .execute(
          `select relname as name, reloptions as options from pg_class where relkind = 'i' and relname in (?)`,
          [declared.map(([name]) => name)],
        );
      const actual = new Map(rows.map((row) => [row.name, [...(row.options ?? [])].sort()]));
      expect(Object.fromEntries(declared.map(([name]) => [name, actual.get(name as string)]))).toEqual(
        Object.fromEntries(declared),
      );
    } finally {
      await orm.close(true);
    }
  });
});

describe("instances starting together", () => {
  it("apply the migrations once between them", async () => {
    const pg = (await import("pg")).default;
    const admin = new pg.Client({ connectionString: srv.databaseUrl });
    await admin.connect();
    await admin.query("create database concurrent_start");
    await admin.end();
    const url = new URL(srv.databaseUrl);
    url.pathname = "/concurrent_start";
    const { openOrm } = await import("./orm.js");
    const orms = await Promise.all([
      openOrm(url.toString()),
      openOrm(url.toString()),
      openOrm(url.toString()),
    ]);
    const applied: { name: string }[] = await orms[0]!.em
      .fork()
      .execute("select name from mikro_orm_migrations");
    expect(applied.length).toBe((await orms[0]!.getMigrator().getExecutedMigrations()).length);
    expect(new Set(applied.map((r: { name: string }) => r.name)).size).toBe(applied.length);
    await Promise.all(orms.map((o) => o.close(true)));
  });
});
