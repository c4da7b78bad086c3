import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type ApiClient, startAnotherInstance, useTestServer } from "../../test/harness.js";
import { TestReceiver, until } from "./test-receiver.js";

// The receiver is on the loopback, which only an operator's setting allows; retries are quick here.
vi.stubEnv("TRACKER_WEBHOOKS_ALLOW_PRIVATE", "1");
vi.stubEnv("TRACKER_WEBHOOKS_RETRY_MS", "150");
vi.stubEnv("TRACKER_WEBHOOKS_GIVE_UP_MS", "2500");
vi.stubEnv("TRACKER_WEBHOOKS_TIMEOUT_MS", "1000");
vi.stubEnv("TRACKER_WEBHOOKS_POLL_MS", "100");
afterAll(() => {
  vi.unstubAllEnvs();
});

const srv = useTestServer();
const receiver = new TestReceiver();
let admin: ApiClient;
let adminToken: string;
let slug: string;

beforeAll(async () => {
  await receiver.start();
  const boot = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  adminToken = boot.apiKey.token;
  slug = boot.workspace.slug;
  admin = srv.client(adminToken);
});
afterAll(() => receiver.stop());

// biome-ignore lint/suspicious/noExplicitAny: delivered bodies are read field by field
type Json = Record<string, any>;

async function register(path: string, extra: Json = {}) {
  const res = await admin.POST("/webhooks", { body: { url: `${receiver.url}${path}`, ...extra } });
  expect(res.response.status).toBe(201);
  return res.data!;
}

const createIssue = async (title: string, team = "ENG") =>
  (await admin.POST("/issues", { body: { team, title, priority: 0 } })).data!.issue;

describe("webhook endpoints", () => {
  it("are for admins", async () => {
    const member = srv.client((await srv.addMember(adminToken, "member")).token);
    const list = await member.GET("/webhooks");
    expect(list.response.status).toBe(403);
    expect(list.error!.code).toBe("admin_required");
    const create = await member.POST("/webhooks", { body: { url: `${receiver.url}/member` } });
    expect(create.response.status).toBe(403);
  });

  it("are created with a secret shown once, listed, changed and deleted", async () => {
    const { webhook, secret } = await register("/crud", { events: ["issue.created", "comment"] });
    expect(secret).toMatch(/^whsec_/);
    expect(webhook).toMatchObject({ events: ["issue.created", "comment"], team: null, enabled: true });
    const listed = await admin.GET("/webhooks");
    expect(listed.data!.webhooks.map((w) => w.id)).toContain(webhook.id);
    expect(JSON.stringify(listed.data)).not.toContain(secret);
    const changed = await admin.PATCH("/webhooks/{id}", {
      params: { path: { id: webhook.id } },
      body: { team: "ENG", events: ["*"] },
    });
    expect(changed.data!.webhook).toMatchObject({ events: ["*"], team: { key: "ENG" } });
    const unknown = await admin.POST("/webhooks", {
      body: { url: `${receiver.url}/x`, events: ["nonsense"] },
    });
    expect(unknown.response.status).toBe(400);
    const gone = await admin.DELETE("/webhooks/{id}", { params: { path: { id: webhook.id } } });
    expect(gone.response.status).toBe(200);
    const again = await admin.GET("/webhooks/{id}", { params: { path: { id: webhook.id } } });
    expect(again.response.status).toBe(404);
  });
});

describe("deliveries", () => {
  it("carry the change as the stream has it, signed as Standard Webhooks says", async () => {
    const { webhook, secret } = await register("/all");
    const issue = await createIssue("Delivered");
    await until(() => receiver.at("/all").length >= 1, "the delivery");
    const got = receiver.at("/all")[0]!;
    const verified = new Webhook(secret).verify(got.body, got.headers) as Json;
    expect(verified).toEqual({
      type: "issue.created",
      timestamp: expect.stringMatching(/Z$/),
      data: {
        entity: "issue",
        action: "created",
        id: issue.id,
        identifier: issue.identifier,
        teamKey: "ENG",
        at: verified.timestamp,
        eventId: expect.stringMatching(/^\d+$/),
        workspace: { id: expect.any(String), slug },
      },
    });
    expect(got.headers["webhook-id"]).toBe(`msg_${verified.data.eventId}`);
    expect(() =>
      new Webhook(`whsec_${Buffer.from("another secret!!").toString("base64")}`).verify(
        got.body,
        got.headers,
      ),
    ).toThrow();
    await until(async () => {
      const log = await admin.GET("/webhooks/{id}/deliveries", { params: { path: { id: webhook.id } } });
      return log.data!.deliveries[0]?.status === "succeeded";
    }, "the log to say succeeded");
    const log = await admin.GET("/webhooks/{id}/deliveries", { params: { path: { id: webhook.id } } });
    expect(log.data!.deliveries[0]).toMatchObject({
      eventType: "issue.created",
      status: "succeeded",
      attempts: 1,
      responseStatus: 200,
      responseBodyPrefix: "ok",
      error: null,
      nextAttemptAt: null,
    });
    await admin.DELETE("/webhooks/{id}", { params: { path: { id: webhook.id } } });
  });

  it("only the changes an endpoint's events and team take", async () => {
    await admin.POST("/teams", { body: { key: "OPS", name: "Operations" } });
    await register("/comments-only", { events: ["comment"] });
    await register("/ops-only", { team: "OPS" });
    const eng = await createIssue("Not for them");
    const ops = await createIssue("For ops", "OPS");
    await admin.POST("/issues/{identifier}/comments", {
      params: { path: { identifier: eng.identifier } },
      body: { body: "hello" },
    });
    await until(
      () => receiver.at("/comments-only").length >= 1 && receiver.at("/ops-only").length >= 1,
      "deliveries",
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.at("/comments-only").map((r) => JSON.parse(r.body).type)).toEqual(["comment.created"]);
    expect(receiver.at("/ops-only").map((r) => JSON.parse(r.body).data.identifier)).toEqual([ops.identifier]);
  });

  it("an issue archived and restored reaches an issue endpoint as issue.updated, twice", async () => {
    const { webhook } = await register("/archive", { events: ["issue"] });
    const issue = await createIssue("Archived then restored");
    const path = { params: { path: { identifier: issue.identifier } } };
    await until(() => receiver.at("/archive").length >= 1, "the create");
    await admin.POST("/issues/{identifier}/archive", path);
    await admin.POST("/issues/{identifier}/unarchive", path);
    await until(() => receiver.at("/archive").length >= 3, "the archive and the restore");
    expect(
      receiver.at("/archive").map((r) => [JSON.parse(r.body).type, JSON.parse(r.body).data.identifier]),
    ).toEqual([
      ["issue.created", issue.identifier],
      ["issue.updated", issue.identifier],
      ["issue.updated", issue.identifier],
    ]);
    await admin.DELETE("/webhooks/{id}", { params: { path: { id: webhook.id } } });
  });

  it("failing ones are retried, logged with a bounded body, and the endpoint disabled after failing too long", async () => {
    receiver.answer("/failing", { status: 500, body: "x".repeat(5000) });
    receiver.answer("/redirecting", { status: 302, location: `${receiver.url}/redirected` });
    const failing = await register("/failing", { events: ["issue.created"] });
    await register("/redirecting", { events: ["issue.created"] });
    await createIssue("Fails");
    await until(() => receiver.at("/failing").length >= 3, "retries");
    const log = await admin.GET("/webhooks/{id}/deliveries", {
      params: { path: { id: failing.webhook.id } },
    });
    const first = log.data!.deliveries[0]!;
    expect(first.attempts).toBeGreaterThanOrEqual(2);
    expect(first.responseStatus).toBe(500);
    expect(first.responseBodyPrefix!.length).toBe(1024);
    // Every attempt of one change carries the same id.
    expect(new Set(receiver.at("/failing").map((r) => r.headers["webhook-id"])).size).toBe(1);
    await until(
      async () =>
        (await admin.GET("/webhooks/{id}", { params: { path: { id: failing.webhook.id } } })).data!.webhook
          .enabled === false,
      "the endpoint to be disabled",
    );
    const disabled = (await admin.GET("/webhooks/{id}", { params: { path: { id: failing.webhook.id } } }))
      .data!.webhook;
    expect(disabled.disabledReason).toMatch(/failed/);
    const [announced] = await srv.query(
      "select 1 from change_events where entity = 'webhook' and entity_id = $1",
      [failing.webhook.id],
    );
    expect(announced).toBeDefined();
    const settled = await admin.GET("/webhooks/{id}/deliveries", {
      params: { path: { id: failing.webhook.id } },
    });
    expect(settled.data!.deliveries.every((d) => d.status === "failed")).toBe(true);
    // A redirect is a failed attempt; it is not followed.
    expect(receiver.at("/redirecting").length).toBeGreaterThanOrEqual(1);
    expect(receiver.at("/redirected")).toEqual([]);
    // Disabled: new changes are not queued for it.
    const before = receiver.at("/failing").length;
    await createIssue("After disabling");
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(receiver.at("/failing").length).toBe(before);
  });

  it("a delivery can be sent again, with the same webhook-id", async () => {
    const { webhook } = await register("/again", { events: ["issue.created"] });
    await createIssue("Redelivered");
    await until(() => receiver.at("/again").length === 1, "the first delivery");
    const log = await admin.GET("/webhooks/{id}/deliveries", { params: { path: { id: webhook.id } } });
    const original = log.data!.deliveries[0]!;
    const res = await admin.POST("/webhooks/{id}/deliveries/{deliveryId}/redeliver", {
      params: { path: { id: webhook.id, deliveryId: original.id } },
    });
    expect(res.response.status).toBe(201);
    expect(res.data!.delivery).toMatchObject({ messageId: original.messageId, status: "pending" });
    await until(() => receiver.at("/again").length === 2, "the redelivery");
    const [a, b] = receiver.at("/again");
    expect(b!.headers["webhook-id"]).toBe(a!.headers["webhook-id"]);
    expect(b!.body).toBe(a!.body);
  });
});

describe("several instances", () => {
  it("share the outbox: each change is sent once, whichever instance sends it", async () => {
    const other = await startAnotherInstance(srv.databaseUrl);
    try {
      await register("/shared", { events: ["issue.created"] });
      const otherAdmin = srv.client(adminToken);
      const made: string[] = [];
      // Writes through both instances; both dispatchers are woken by every commit.
      for (let n = 0; n < 40; n++) {
        const viaOther = n % 2 === 1;
        const res = viaOther
          ? await fetch(`${other.url}/api/v1/issues`, {
              method: "POST",
              headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
              body: JSON.stringify({ team: "ENG", title: `Shared ${n}`, priority: 0 }),
            }).then((r) => r.json() as Promise<{ issue: { identifier: string } }>)
          : (await otherAdmin.POST("/issues", { body: { team: "ENG", title: `Shared ${n}`, priority: 0 } }))
              .data!;
        made.push(res.issue.identifier);
      }
      await until(() => receiver.at("/shared").length >= made.length, "every delivery");
      await new Promise((resolve) => setTimeout(resolve, 500));
      const got = receiver.at("/shared").map((r) => JSON.parse(r.body).data.identifier as string);
      expect(got.sort()).toEqual([...made].sort());
    } finally {
      await other.close();
    }
  });
});
