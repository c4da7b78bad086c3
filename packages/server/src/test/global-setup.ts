import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../db/embedded-postgres.js";
import { openOrm } from "../db/orm.js";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    templateDatabase: string;
  }
}

export const TEMPLATE_DB = "tracker_template";

/** One PostgreSQL cluster per test run; a migrated template that each test file copies into its own database. */
export default async function setup(project: TestProject) {
  const external = process.env.TEST_DATABASE_URL;
  const dir = external ? undefined : mkdtempSync(path.join(os.tmpdir(), "tracker-test-"));
  const db = external
    ? undefined
    : await startEmbeddedPostgres({ dataDir: path.join(dir!, "pg"), durable: false });
  const baseUrl = external ?? db!.url;

  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${TEMPLATE_DB}`);
  await admin.query(`create database ${TEMPLATE_DB}`);
  await admin.end();

  const orm = await openOrm(withDatabase(baseUrl, TEMPLATE_DB));
  await orm.close(true);

  project.provide("databaseUrl", baseUrl);
  project.provide("templateDatabase", TEMPLATE_DB);

  return async () => {
    await db?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
