import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sign } from "@octokit/webhooks-methods";
import { Webhook } from "standardwebhooks";
import { afterAll, describe, expect, it, vi } from "vitest";
import { backupDatabase } from "../../operations/backup.js";
import { restoreDatabase, verifyBackup } from "../../operations/restore.js";
import type { RunningServer } from "../../server.js";
import { freshDatabase } from "../../test/databases.js";
import { startAnotherInstance, startTestServer, type TestServer } from "../../test/harness.js";
import { TestReceiver, until } from "./test-receiver.js";

/**
 * A backup carries the integrations whole: the outbox is a table like any other, so deliveries queued and
 * not yet sent when the backup was taken are sent by the restored install, and the sealed secrets open
 * there too, given the same TRACKER_SECRETS_KEY (README, "Integrations").
 */
const dir = mkdtempSync(path.join(os.tmpdir(), "tracker-webhooks-restore-"));
chmodSync(dir, 0o700);
const receiver = new TestReceiver();
let source: TestServer | undefined;
let restored: RunningServer | undefined;
afterAll(async () => {
  await restored?.close();
  await source?.close();
  await receiver.stop();
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

describe("backup and restore", { timeout: 120_000 }, () => {
  it("restore the outbox, which the restored install sends, and the secrets, which it can read", async () => {
    await receiver.start();
    vi.stubEnv("TRACKER_SECRETS_KEY", randomBytes(32).toString("hex"));
    vi.stubEnv("TRACKER_WEBHOOKS_ALLOW_PRIVATE", "1");
    vi.stubEnv("TRACKER_WEBHOOKS_POLL_MS", "100");
    // The source sends nothing: its deliveries are still queued when it is backed up.
    vi.stubEnv("TRACKER_WEBHOOKS", "0");
    source = await startTestServer();
    const boot = await source.bootstrap({ team: { key: "ENG", name: "Engineering" } });
    const api = source.client(boot.apiKey.token);
    const { secret } = (await api.POST("/webhooks", { body: { url: `${receiver.url}/restored` } })).data!;
    const github = (await api.PUT("/workspace/codehost", { body: { provider: "github" } })).data!;
    for (const title of ["One", "Two", "Three"])
      await api.POST("/issues", { body: { team: "ENG", title, priority: 0 } });
    const [queued] = await source.query<{ n: number }>(
      "select count(*)::int as n from webhook_deliveries where status = 'pending'",
    );
    expect(queued!.n).toBe(3);

    const file = path.join(dir, "tracker.backup");
    await backupDatabase(source.databaseUrl, file);
    const target = await freshDatabase("webhooks_restored");
    await restoreDatabase(target, file, await verifyBackup(file));
    vi.stubEnv("TRACKER_WEBHOOKS", "1");
    restored = await startAnotherInstance(target);

    await until(() => receiver.at("/restored").length >= 3, "the restored outbox to be sent");
    const titles = receiver
      .at("/restored")
      .map(
        (r) =>
          new Webhook(secret).verify(r.body, r.headers) as { type: string; data: { identifier: string } },
      );
    expect(titles.map((t) => t.type)).toEqual(["issue.created", "issue.created", "issue.created"]);

    const body = JSON.stringify({ zen: "Keep it logically awesome.", hook_id: 1 });
    const ping = await fetch(`${restored.url}${github.codehost.path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-github-event": "ping",
        "x-github-delivery": "after-restore",
        "x-hub-signature-256": await sign(github.secret, body),
      },
      body,
    });
    expect(ping.status).toBe(200);
  });
});
