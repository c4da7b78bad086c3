import { beforeAll, describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { ws, call } = useTools();

// The loopback's discard port, which the test workspace allows (test/workspace.ts): nothing listens there.
const url = "http://127.0.0.1:9/list-hook";
let id: string;

beforeAll(async () => {
  ({
    webhook: { id },
  } = await ws.sdk.webhooks.create({ url, events: ["issue.created"] }));
  await ws.sdk.issues.create({ team: "ENG", title: "Listed for the hook" });
});

describe("list_webhooks", () => {
  it("lists the endpoints, one line each, and one endpoint's deliveries by its URL or id", async () => {
    const all = await call<{ webhooks: { id: string; url: string; enabled: boolean }[] }>("list_webhooks");
    expect(all.text).toMatch(/^http:\/\/127\.0\.0\.1:9\/list-hook \[enabled\] issue\.created id /m);
    expect(all.data.webhooks).toContainEqual(expect.objectContaining({ id, url, enabled: true }));

    for (const ref of [url, id]) {
      const log = await call<{ deliveries: { eventType: string }[] }>("list_webhooks", { webhook: ref });
      expect(log.text).toMatch(
        /^Deliveries to http:\/\/127\.0\.0\.1:9\/list-hook, newest first:\n\S+ issue\.created /,
      );
      expect(log.data.deliveries.map((d) => d.eventType)).toEqual(["issue.created"]);
    }
    const none = await call("list_webhooks", { webhook: url, status: "succeeded" });
    expect(none.text).toMatch(/\nNone yet\.$/);
  });

  it("names the endpoints there are when the one asked for is not among them", async () => {
    const bad = await call("list_webhooks", { webhook: "https://nowhere.example/hook" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/^No webhook "https:\/\/nowhere\.example\/hook"\. Webhooks: .*list-hook/);
  });
});
