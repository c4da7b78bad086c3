import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTracker, verifyWebhook } from "@tracker/sdk";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { embeddedDatabaseUrl, type ServerProcess, startServerProcess } from "../../test/server-process.js";
import { TestReceiver, until } from "./test-receiver.js";

/**
 * At least once, across a crash: the built server, as `npm start` runs it, sends every change to a local
 * receiver while issues are being created; it is killed with SIGKILL mid-run and started again on the same
 * data, and the receiver must then hold every change the database committed, exactly as committed, each
 * signed so the SDK's verifyWebhook accepts it.
 */
const root = mkdtempSync(path.join(os.tmpdir(), "tracker-webhook-crash-"));
// A private folder, as a checkout in a home directory is: postgres runs as another uid inside it.
chmodSync(root, 0o700);
const servers: ServerProcess[] = [];
const receiver = new TestReceiver();
afterAll(async () => {
  for (const s of servers) await s.stop();
  await receiver.stop();
  rmSync(root, { recursive: true, force: true });
});

const ENV = {
  NODE_ENV: "development",
  TRACKER_WEBHOOKS_ALLOW_PRIVATE: "1",
  TRACKER_WEBHOOKS_RETRY_MS: "200",
  TRACKER_WEBHOOKS_TIMEOUT_MS: "1000",
  TRACKER_WEBHOOKS_POLL_MS: "100",
};

interface Delivered {
  type: string;
  data: { eventId: string; entity: string; action: string; id: string; identifier?: string };
}

describe("outbound webhooks across a server killed with SIGKILL", { timeout: 240_000 }, () => {
  it("deliver every committed change at least once, as committed, with valid signatures", async () => {
    await receiver.start();
    // A receiver slower than the writers: deliveries are queued and under way when the server dies.
    receiver.answer("/crash", { status: 200, delayMs: 50 });
    const dataDir = path.join(root, "data");
    const first = await startServerProcess({ ...ENV, TRACKER_DATA_DIR: dataDir });
    servers.push(first);
    const apiKey = first.demoKey!;
    const connect = (url: string) => createTracker({ baseUrl: url, apiKey, maxRetries: 0, timeoutMs: 5_000 });
    const { webhook, secret } = await connect(first.url).webhooks.create({ url: `${receiver.url}/crash` });
    const team = (await connect(first.url).teams.list())[0]!.key;

    // Four writers create issues until the server dies under them.
    const tracker = connect(first.url);
    let acknowledged = 0;
    let stop = false;
    const writer = async (w: number) => {
      for (let n = 0; !stop; n++) {
        try {
          await tracker.issues.create({ team, title: `Writer ${w} issue ${n}` });
          acknowledged++;
        } catch {
          return; // the server is gone
        }
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    await until(
      () => acknowledged >= 60 && receiver.at("/crash").length >= 10,
      "writes and deliveries under way",
      60_000,
    );
    first.child.kill("SIGKILL");
    await first.exited;
    stop = true;
    await Promise.all(writers);
    const deliveredBeforeRestart = receiver.at("/crash").length;

    const second = await startServerProcess({ ...ENV, TRACKER_DATA_DIR: dataDir });
    servers.push(second);
    // Changes after the restart are delivered too.
    for (let n = 0; n < 5; n++)
      await connect(second.url).issues.create({ team, title: `After restart ${n}` });

    const db = new pg.Client({ connectionString: embeddedDatabaseUrl(dataDir) });
    await db.connect();
    try {
      const { rows: committed } = await db.query<{
        id: string;
        entity: string;
        action: string;
        entity_id: string;
        identifier: string | null;
      }>(
        `select e.id::text, e.entity, e.action, e.entity_id, e.identifier from change_events e
          where e.id >= (select min(substr(message_id, 5)::bigint) from webhook_deliveries where endpoint_id = $1)
          order by e.id`,
        [webhook.id],
      );
      const byId = () => {
        const seen = new Map<string, Delivered>();
        for (const r of receiver.at("/crash")) {
          const event = verifyWebhook(r.body, r.headers, secret) as unknown as Delivered;
          expect(r.headers["webhook-id"]).toBe(`msg_${event.data.eventId}`);
          seen.set(event.data.eventId, event);
        }
        return seen;
      };
      await until(() => committed.every((c) => byId().has(c.id)), "every committed change to arrive", 90_000);
      const seen = byId();
      for (const c of committed) {
        const got = seen.get(c.id)!;
        expect({ type: got.type, id: got.data.id, identifier: got.data.identifier ?? null }).toEqual({
          type: `${c.entity}.${c.action}`,
          id: c.entity_id,
          identifier: c.identifier,
        });
      }
      // Nothing arrived that was not committed.
      const committedIds = new Set(committed.map((c) => c.id));
      expect([...seen.keys()].filter((id) => !committedIds.has(id))).toEqual([]);
      const created = committed.filter((c) => c.entity === "issue" && c.action === "created").length;
      expect(created).toBeGreaterThanOrEqual(acknowledged + 5);
      const total = receiver.at("/crash").length;
      console.log(
        `webhooks across SIGKILL: ${committed.length} committed changes (${acknowledged} creates acknowledged before the kill), ` +
          `${deliveredBeforeRestart} deliveries before it, ${total} in all (${total - seen.size} repeated)`,
      );
    } finally {
      await db.end();
    }
  });
});
