import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { ws, call } = useTools();

// The loopback's discard port, which the test workspace allows (test/workspace.ts): nothing listens there.
const url = "http://127.0.0.1:9/manage-hook";

describe("manage_webhooks", () => {
  it("registers an endpoint with its secret shown once, turns it off and on, redelivers and deletes it", async () => {
    const created = await call<{ webhook: { id: string; enabled: boolean }; secret: string }>(
      "manage_webhooks",
      {
        action: "create",
        url,
        events: ["issue.created"],
        team: "ENG",
      },
    );
    expect(created.text).toMatch(
      /^Registered http:\/\/127\.0\.0\.1:9\/manage-hook \(id .+\) for issue\.created of team ENG\. Signing secret \(shown once\): whsec_/,
    );
    expect(created.data.secret).toMatch(/^whsec_/);
    expect(created.data.webhook).toMatchObject({ events: ["issue.created"], team: "ENG" });
    const [hook] = (await ws.sdk.webhooks.list()).filter((h) => h.url === url);
    expect(hook).toMatchObject({
      id: created.data.webhook.id,
      events: ["issue.created"],
      team: { key: "ENG" },
    });

    await ws.sdk.issues.create({ team: "ENG", title: "Queued for the hook" });
    const [delivery] = await ws.sdk.webhooks.deliveries(hook!.id);
    expect(delivery?.eventType).toBe("issue.created");

    const off = await call("manage_webhooks", { action: "update", webhook: url, enabled: false });
    expect(off.text).toBe(`Webhook ${url} is disabled, for issue.created of team ENG.`);
    const refused = await call("manage_webhooks", {
      action: "redeliver",
      webhook: url,
      delivery: delivery!.id,
    });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/disabled: enable it first/);

    await call("manage_webhooks", { action: "update", webhook: hook!.id, enabled: true });
    const again = await call<{ delivery: string }>("manage_webhooks", {
      action: "redeliver",
      webhook: url,
      delivery: delivery!.id,
    });
    expect(again.text).toMatch(
      /^Queued issue\.created to http:\/\/127\.0\.0\.1:9\/manage-hook again \(delivery .+\)\.$/,
    );
    expect((await ws.sdk.webhooks.deliveries(hook!.id)).map((d) => d.id)).toContain(again.data.delivery);

    expect((await call("manage_webhooks", { action: "delete", webhook: url })).text).toBe(
      `Deleted the webhook to ${url} (it had issue.created of team ENG).`,
    );
    expect((await ws.sdk.webhooks.list()).map((h) => h.url)).not.toContain(url);
  });

  it("says what each action needs, and which endpoints there are", async () => {
    const noUrl = await call("manage_webhooks", { action: "create" });
    expect(noUrl.isError).toBe(true);
    expect(noUrl.text).toMatch(/^create needs `url`/);
    const unknown = await call("manage_webhooks", { action: "delete", webhook: "https://nowhere.example/x" });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/^No webhook "https:\/\/nowhere\.example\/x"\. Webhooks: /);
    const refusedUrl = await call("manage_webhooks", { action: "create", url: "ftp://example.com/hook" });
    expect(refusedUrl.isError).toBe(true);
    expect(refusedUrl.text).toMatch(/only http and https URLs/);
  });
});
