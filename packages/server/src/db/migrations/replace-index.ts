import type { Migration } from "@mikro-orm/migrations";

/**
 * Replaces index `name` by one `on <definition>` under the same name: the new one is built first, so the
 * table is never without it while the migration runs.
 */
export function replaceIndex(migration: Migration, name: string, definition: string): void {
  migration.addSql(`create index "${name}_next" on ${definition}`);
  migration.addSql(`drop index "${name}"`);
  migration.addSql(`alter index "${name}_next" rename to "${name}"`);
}
