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
