import pg from "pg";
import { inject } from "vitest";
import { withDatabase } from "./global-setup.js";

/** What fixtures write through: a test server (`TestServer.query`) or a client of its database. */
export interface Db {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
}

/**
 * A database of the test run's cluster, made anew under `name`: empty (a deployment's first start migrates
 * it), or a copy of the migrated template. Returns its URL.
 */
export async function freshDatabase(name: string, from: "empty" | "template" = "empty"): Promise<string> {
  const admin = new pg.Client({ connectionString: inject("databaseUrl") });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name}`);
    await admin.query(
      `create database ${name}${from === "template" ? ` template ${inject("templateDatabase")}` : ""}`,
    );
  } finally {
    await admin.end();
  }
  return withDatabase(inject("databaseUrl"), name);
}
