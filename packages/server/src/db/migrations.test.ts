import { MikroORM } from "@mikro-orm/postgresql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test/harness.js";
import { ormOptions } from "./orm.js";

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(() => srv.close());

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
