import type { TestServer } from "./harness.js";

/**
 * A fingerprint of every table of the test server's database, to assert that refused requests changed
 * nothing. `api_keys` without `last_used_at` and `sessions` without `last_seen_at`, which authenticating
 * may touch.
 */
export async function databaseFingerprint(srv: Pick<TestServer, "query">): Promise<string> {
  const tables = await srv.query<{ table_name: string }>(
    "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
  );
  const parts: string[] = [];
  for (const { table_name } of tables) {
    const row =
      table_name === "api_keys"
        ? "(t.id, t.user_id, t.scope, t.workspace_id, t.active_workspace_id, t.name, t.token_hash)::text"
        : table_name === "sessions"
          ? "(t.id, t.user_id, t.token_hash, t.active_workspace_id, t.sso_workspace_id, t.expires_at)::text"
          : "t::text";
    const [h] = await srv.query<{ h: string }>(
      `select md5(coalesce(string_agg(${row}, '|' order by ${row}), '')) as h from "${table_name}" t`,
    );
    parts.push(`${table_name}:${h!.h}`);
  }
  return parts.join("\n");
}
