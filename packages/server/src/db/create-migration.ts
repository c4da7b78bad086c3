#!/usr/bin/env node
/**
 * Writes a migration for the difference between the entities and the migrated schema:
 * `npm run build -w @tracker/server && npm run migration:create -w @tracker/server -- <what-changed>`.
 * Runs against a throwaway embedded cluster, so the real data folder is never touched, and registers the
 * new file in migrations/index.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startEmbeddedPostgres } from "./embedded-postgres.js";
import { openOrm } from "./orm.js";

const srcDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../src/db/migrations");
const dir = mkdtempSync(path.join(os.tmpdir(), "tracker-migration-"));
const db = await startEmbeddedPostgres({ dataDir: path.join(dir, "pg"), durable: false });
try {
  const orm = await openOrm(db.url);
  const diff = await orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false });
  if (!diff.trim()) {
    console.log("The schema matches the entities: no migration needed.");
  } else {
    const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
    const suffix = (process.argv[2] ?? "change").replace(/[^a-zA-Z0-9]+/g, "_");
    const name = `Migration${stamp}_${suffix}`;
    const statements = diff
      .split(/;\n/)
      .map((s) => s.trim())
      .filter(Boolean)
      .map((s) => `    this.addSql(${JSON.stringify(s.replace(/;$/, ""))});`)
      .join("\n");
    const file = path.join(srcDir, `${name}.ts`);
    writeFileSync(
      file,
      `import { Migration } from "@mikro-orm/migrations";\n\nexport class ${name} extends Migration {\n  override async up(): Promise<void> {\n${statements}\n  }\n}\n`,
    );
    const index = path.join(srcDir, "index.ts");
    const text = readFileSync(index, "utf8")
      .replace(/\n\n\/\*\*/, `\nimport { ${name} } from "./${name}.js";\n\n/**`)
      .replace(/\n\];\s*$/, `\n  { name: "${name}", class: ${name} },\n];\n`);
    writeFileSync(index, text);
    console.log(`Wrote ${file} and registered it in ${index}`);
  }
  await orm.close(true);
} finally {
  await db.stop();
  rmSync(dir, { recursive: true, force: true });
}
