// Safe retries end to end: the SDK's keys and retries against the real server's idempotency store. A fetch
// that hands each request to the server but loses the answer (as a dropped connection would) stands in
// for the network, so the server acts while the client never hears of it.

import { startTestServer, type TestServer } from "@tracker/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTracker, type Tracker, TrackerError } from "./index.js";
import { connectionReset } from "./test/fake-fetch.js";

let server: TestServer;
let token: string;
let tracker: Tracker;

beforeAll(async () => {
  server = await startTestServer();
  const boot = await server.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  token = boot.apiKey.token;
  // Every answer is checked against the contract on the way in.
  tracker = createTracker({ baseUrl: server.url, apiKey: token, workspace: "", fetch: server.fetch });
});

afterAll(async () => {
  await server?.close();
});

interface Attempt {
  key: string | null;
  status: number;
  replayed: string | null;
}

/** A client whose fetch reaches the server every time but loses the answers of the first `lose` attempts. */
function losingAnswers(lose: number): { tracker: Tracker; attempts: Attempt[] } {
  const attempts: Attempt[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    const response = await server.fetch(request);
    attempts.push({
      key: request.headers.get("idempotency-key"),
      status: response.status,
      replayed: response.headers.get("idempotent-replayed"),
    });
    if (attempts.length <= lose) {
      await response.body?.cancel();
      throw connectionReset();
    }
    return response;
  };
  return { tracker: createTracker({ baseUrl: server.url, apiKey: token, workspace: "", fetch }), attempts };
}

async function issuesTitled(title: string): Promise<string[]> {
  const found: string[] = [];
  for await (const issue of tracker.issues.iterate({ team: "ENG", q: title, limit: 200 })) {
    if (issue.title === title) found.push(issue.identifier);
  }
  return found;
}

describe("safe retries against the server", () => {
  it("creates exactly one issue when the first attempt's answer is lost", async () => {
    const { tracker: flaky, attempts } = losingAnswers(1);
    const title = `Lost answer ${Date.now()}`;

    const issue = await flaky.issues.create({ team: "ENG", title });

    expect(attempts).toHaveLength(2);
    expect(attempts[0]).toMatchObject({ status: 201, replayed: null });
    // The resend carries the same key and gets the first answer back, without a second issue.
    expect(attempts[1]).toMatchObject({ key: attempts[0]!.key, status: 201, replayed: "true" });
    expect(await issuesTitled(title)).toEqual([issue.identifier]);
  });

  it("creates a batch once when its answer is lost, in order, and a refused batch rejects with the item's problem", async () => {
    const { tracker: flaky, attempts } = losingAnswers(1);
    const title = `Batch ${Date.now()}`;

    const created = await flaky.issues.createMany([
      { team: "ENG", title: `${title} a` },
      { team: "ENG", title: `${title} b` },
    ]);

    expect(created.map((i) => i.title)).toEqual([`${title} a`, `${title} b`]);
    expect(attempts.map((a) => a.replayed)).toEqual([null, "true"]);
    expect(await issuesTitled(`${title} a`)).toEqual([created[0]!.identifier]);
    expect(await issuesTitled(`${title} b`)).toEqual([created[1]!.identifier]);

    const refused = await tracker.issues
      .createMany([
        { team: "ENG", title: "Fine" },
        { team: "ENG", title: "Lost", state: "Nowhere" },
      ])
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TrackerError);
    expect((refused as TrackerError).code).toBe("invalid_request");
    expect((refused as TrackerError).message).toMatch(/Issue 2 of 2/);
  });

  it("imports any number of issues in batches, reports a refused one and creates the rest, once however often it runs", {
    timeout: 60_000,
  }, async () => {
    const title = `Imported ${Date.now()}`;
    const items = Array.from({ length: 150 }, (_, i) => ({
      team: "ENG",
      title: i === 119 ? "" : `${title} ${i}`,
    }));
    const settled: number[] = [];

    const first = await tracker.issues.import(items, { onProgress: (n) => settled.push(n) });

    expect(settled).toEqual([100, 150]);
    expect(first.refused.map((r) => [r.index, r.reason])).toEqual([
      [119, expect.stringMatching(/^invalid_request: title /)],
    ]);
    expect(first.created.map((c) => c.index)).toEqual([...Array(150).keys()].filter((i) => i !== 119));
    expect(first.created.map((c) => c.issue.title)).toEqual(first.created.map((c) => `${title} ${c.index}`));

    const again = await tracker.issues.import(items);
    expect(again.created.map((c) => c.issue.identifier)).toEqual(
      first.created.map((c) => c.issue.identifier),
    );
    expect(await issuesTitled(`${title} 0`)).toEqual([first.created[0]!.issue.identifier]);
  });

  it("adds exactly one comment when two answers in a row are lost", async () => {
    const issue = await tracker.issues.create({ team: "ENG", title: "Commented once" });
    const { tracker: flaky, attempts } = losingAnswers(2);

    const comment = await flaky.comments.create(issue.identifier, { body: "Seen twice by the network" });

    expect(new Set(attempts.map((a) => a.key)).size).toBe(1);
    expect(attempts.map((a) => a.replayed)).toEqual([null, "true", "true"]);
    expect((await tracker.comments.list(issue.identifier)).map((c) => c.id)).toEqual([comment.id]);
  });

  it("gives each call a fresh key: the same body sent twice creates two issues", async () => {
    const title = `Twice on purpose ${Date.now()}`;

    const first = await tracker.issues.create({ team: "ENG", title });
    const second = await tracker.issues.create({ team: "ENG", title });

    expect(second.identifier).not.toBe(first.identifier);
    expect((await issuesTitled(title)).sort()).toEqual([first.identifier, second.identifier].sort());
  });

  it("honours the caller's key across calls, and refuses it for another body", async () => {
    const key = `import-${Date.now()}-row-1`;
    const title = `Imported once ${Date.now()}`;

    const first = await tracker.issues.create({ team: "ENG", title }, { idempotencyKey: key });
    const again = await tracker.issues.create({ team: "ENG", title }, { idempotencyKey: key });
    expect(again.identifier).toBe(first.identifier);
    expect(await issuesTitled(title)).toEqual([first.identifier]);

    const err = await tracker.issues
      .create({ team: "ENG", title: `${title} (edited)` }, { idempotencyKey: key })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TrackerError);
    expect(err).toMatchObject({ status: 422, code: "idempotency_key_reused" });
  });
});
