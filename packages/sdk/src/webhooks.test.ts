// tracker.webhooks.* and verifyWebhook against the real server: an endpoint registered through the SDK
// receives a change, and the SDK's check accepts exactly what the server signed.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { startTestServer, type TestServer } from "@tracker/server/testing";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTracker, type Tracker, verifyWebhook, WebhookSignatureError } from "./index.js";

let server: TestServer;
let admin: Tracker;
let receiver: http.Server;
let receiverUrl: string;
const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  // The receiver is on the loopback, which only the operator's setting allows.
  vi.stubEnv("TRACKER_WEBHOOKS_ALLOW_PRIVATE", "1");
  vi.stubEnv("TRACKER_WEBHOOKS_POLL_MS", "100");
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.end("thanks");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  server = await startTestServer();
  const boot = await server.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  admin = createTracker({
    baseUrl: server.url,
    apiKey: boot.apiKey.token,
    workspace: "",
    fetch: server.fetch,
  });
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe("tracker.webhooks", () => {
  it("registers an endpoint whose deliveries verifyWebhook accepts, and lists their log", async () => {
    const { webhook, secret } = await admin.webhooks.create({ url: receiverUrl, events: ["issue.created"] });
    expect((await admin.webhooks.list()).map((w) => w.id)).toEqual([webhook.id]);
    const issue = await admin.issues.create({ team: "ENG", title: "Hooked" });
    const deadline = Date.now() + 10_000;
    while (received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    const [delivery] = received;
    const event = verifyWebhook(delivery!.body, delivery!.headers as Record<string, string>, secret);
    expect(event.type).toBe("issue.created");
    expect(event.data).toMatchObject({ entity: "issue", action: "created", identifier: issue.identifier });
    expect(() =>
      verifyWebhook(`${delivery!.body} `, delivery!.headers as Record<string, string>, secret),
    ).toThrow(WebhookSignatureError);

    let log = await admin.webhooks.deliveries(webhook.id);
    while (log[0]?.status !== "succeeded" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25));
      log = await admin.webhooks.deliveries(webhook.id);
    }
    expect(log[0]).toMatchObject({ status: "succeeded", responseStatus: 200, responseBodyPrefix: "thanks" });
    const again = await admin.webhooks.redeliver(webhook.id, log[0]!.id);
    expect(again.messageId).toBe(log[0]!.messageId);
    expect((await admin.webhooks.update(webhook.id, { enabled: false })).enabled).toBe(false);
    await admin.webhooks.delete(webhook.id);
    expect(await admin.webhooks.list()).toEqual([]);
  });
});

describe("verifyWebhook", () => {
  const secret = `whsec_${Buffer.from("a test secret of some length").toString("base64")}`;
  const body = JSON.stringify({ type: "issue.updated", timestamp: new Date().toISOString(), data: {} });
  const signed = (at: Date) => {
    const signature = new Webhook(secret).sign("msg_1", at, body);
    return {
      "webhook-id": "msg_1",
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": signature,
    };
  };

  it("takes headers as a Headers object or a plain record", () => {
    expect(verifyWebhook(body, new Headers(signed(new Date())), secret).type).toBe("issue.updated");
    expect(verifyWebhook(new TextEncoder().encode(body), signed(new Date()), secret).type).toBe(
      "issue.updated",
    );
  });

  it("refuses another secret, a changed body and an old timestamp", () => {
    const other = `whsec_${Buffer.from("another secret entirely").toString("base64")}`;
    expect(() => verifyWebhook(body, signed(new Date()), other)).toThrow(WebhookSignatureError);
    expect(() => verifyWebhook(body.replace("updated", "deleted"), signed(new Date()), secret)).toThrow(
      WebhookSignatureError,
    );
    expect(() => verifyWebhook(body, signed(new Date(Date.now() - 3_600_000)), secret)).toThrow(
      WebhookSignatureError,
    );
  });
});
