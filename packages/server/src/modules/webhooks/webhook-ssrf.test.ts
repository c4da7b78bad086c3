import { describe, expect, it } from "vitest";
import { isPublicAddress } from "../../net/outbound-guard.js";
import { type ApiClient, useTestServer } from "../../test/harness.js";
import { TestReceiver } from "./test-receiver.js";
import { send } from "./webhook-target.js";

/**
 * Safe by default: without TRACKER_OUTBOUND_ALLOW_PRIVATE (or TRACKER_WEBHOOKS_ALLOW_PRIVATE), no private,
 * loopback or link-local target. Which addresses are public is `net/outbound-guard.test.ts`'s table.
 */
const srv = useTestServer();

describe("webhook targets", () => {
  it("refuses private, loopback, link-local and non-HTTP targets when registered", async () => {
    const admin: ApiClient = srv.client((await srv.bootstrap()).apiKey.token);
    for (const url of [
      "http://127.0.0.1:8080/hook",
      "http://10.1.2.3/hook",
      "http://192.168.1.1/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://[::1]/hook",
      "http://[::ffff:127.0.0.1]/hook",
      // IPv4-compatible IPv6: the IPv4 address inside is what is reached
      "http://[::a9fe:a9fe]/",
      "http://[::169.254.169.254]/latest/meta-data",
      "http://[::127.0.0.1]/hook",
      "http://[::10.0.0.1]/hook",
      "http://[64:ff9b::7f00:1]/hook",
      "http://[2002:7f00:1::1]/hook",
      "http://0x7f000001/hook",
      "http://[::]/hook",
      "http://0.0.0.0/hook",
      "http://[fd00::1]/hook",
      "http://localhost:3000/hook",
      "ftp://example.com/hook",
      "http://user:pass@example.com/hook",
      "not a url",
    ]) {
      const res = await admin.POST("/webhooks", { body: { url } });
      expect({ url, status: res.response.status, code: res.error?.code }).toEqual({
        url,
        status: 400,
        code: "invalid_request",
      });
    }
    expect(await srv.query("select 1 from webhook_endpoints")).toEqual([]);
  });

  it("checks the address at connect time, so a name resolving to a private one is refused when sending", async () => {
    const receiver = await new TestReceiver().start();
    try {
      const port = new URL(receiver.url).port;
      // `localhost` stands for a public name that a DNS rebinding turned private after registration.
      const refused = await send(`http://localhost:${port}/x`, {}, "{}", {
        timeoutMs: 1000,
        allowPrivate: false,
      });
      expect(refused.error).toMatch(/^refused: .*not a public address/);
      const literal = await send(`http://127.0.0.1:${port}/x`, {}, "{}", {
        timeoutMs: 1000,
        allowPrivate: false,
      });
      expect(literal.error).toMatch(/^refused/);
      const compatible = await send(`http://[::127.0.0.1]:${port}/x`, {}, "{}", {
        timeoutMs: 1000,
        allowPrivate: false,
      });
      // One message for every refusal and failure: what is at the address is not told.
      expect(new Set([refused.error, literal.error, compatible.error])).toEqual(
        new Set(["refused: could not be reached, or is not a public address"]),
      );
      expect(receiver.received).toEqual([]);
      const allowed = await send(`http://localhost:${port}/x`, {}, "{}", {
        timeoutMs: 1000,
        allowPrivate: true,
      });
      expect(allowed.status).toBe(200);
    } finally {
      await receiver.stop();
    }
  });

  it("knows public addresses from the others", () => {
    for (const a of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111"])
      expect([a, isPublicAddress(a)]).toEqual([a, true]);
    for (const a of [
      "127.0.0.1",
      "10.0.0.1",
      "172.16.5.4",
      "192.168.0.1",
      "169.254.1.1",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "fe80::1",
      "fc00::1",
      "::ffff:10.0.0.1",
      "::a9fe:a9fe",
      "::127.0.0.1",
      "::10.0.0.1",
      "224.0.0.1",
    ])
      expect([a, isPublicAddress(a)]).toEqual([a, false]);
  });

  it("bounds an attempt by its time limit", async () => {
    const receiver = await new TestReceiver().start();
    try {
      receiver.answer("/slow", { status: 200, delayMs: 2000 });
      const res = await send(`${receiver.url}/slow`, {}, "{}", { timeoutMs: 300, allowPrivate: true });
      expect(res.error).toMatch(/timed out/);
      expect(res.durationMs).toBeLessThan(1500);
    } finally {
      await receiver.stop();
    }
  });
});
