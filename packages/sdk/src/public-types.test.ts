// Type-level tests: what the SDK's public surface accepts and returns. A change that would break a
// caller's code fails `npm run typecheck` here (each @ts-expect-error must stay an error), before any
// script breaks.
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type CallOptions,
  createTracker,
  type Page,
  type ProblemCode,
  type Schemas,
  type Tracker,
  TrackerError,
  TrackerNetworkError,
  TrackerTimeoutError,
} from "./index.js";

// Never called: only compiled.
async function surface(tracker: Tracker): Promise<void> {
  const options: CallOptions = {
    signal: AbortSignal.timeout(1_000),
    timeoutMs: 5_000,
    headers: { "X-Trace-Id": "t-1" },
    idempotencyKey: "row-1",
  };
  // Every method takes the options last, after its optional query.
  await tracker.users.list(options);
  await tracker.issues.list({}, options);
  await tracker.teams.delete("OLD", {}, options);
  await tracker.issues.create({ team: "ENG", title: "A" }, { idempotencyKey: "row-2" });
  await tracker.digest({}, { timeoutMs: 0 });

  // @ts-expect-error timeoutMs is a number of milliseconds
  await tracker.users.list({ timeoutMs: "30s" });
  // @ts-expect-error header values are strings
  await tracker.users.list({ headers: { "X-Retry": 1 } });
  // @ts-expect-error an unknown option is a typo, not ignored
  await tracker.users.list({ retries: 3 });
  // @ts-expect-error the options come after the query, not in it
  await tracker.issues.list({ team: "ENG", signal: AbortSignal.timeout(1) });

  // Paged lists: one page is { items, nextOffset }; the rest are arrays.
  const page = await tracker.issues.list({ team: "ENG" });
  expectTypeOf(page).toEqualTypeOf<Page<Schemas["Issue"]>>();
  expectTypeOf(page.nextOffset).toEqualTypeOf<number | null>();
  // @ts-expect-error the page's items are `items`, whatever the list
  page.issues;
  expectTypeOf(await tracker.projects.list()).toEqualTypeOf<Page<Schemas["Project"]>>();
  expectTypeOf(await tracker.initiatives.list()).toEqualTypeOf<Page<Schemas["Initiative"]>>();
  expectTypeOf(await tracker.teams.members("ENG")).toBeArray();
  expectTypeOf(await tracker.teams.workflows("ENG")).toBeArray();
  expectTypeOf(await tracker.projects.members("Launch")).toBeArray();

  // TrackerError.code is the contract's union.
  try {
    await tracker.issues.get("ENG-1");
  } catch (err) {
    if (err instanceof TrackerError) {
      expectTypeOf(err.code).toEqualTypeOf<ProblemCode>();
      expectTypeOf(err.code).toEqualTypeOf<Schemas["ProblemCode"]>();
      if (err.code === "idempotency_key_reused" || err.code === "headers_too_large") return;
      // @ts-expect-error not a code of the contract
      if (err.code === "not-found") return;
    }
    if (err instanceof TrackerTimeoutError) expectTypeOf(err.timeoutMs).toBeNumber();
  }
}

describe("public types", () => {
  it("compile as the callers above use them", () => {
    expect(typeof surface).toBe("function");
    expect(new TrackerTimeoutError({ method: "GET", path: "/", timeoutMs: 1, attempts: 1 })).toBeInstanceOf(
      TrackerNetworkError,
    );
    expect(createTracker({ baseUrl: "http://tracker.test", timeoutMs: 0 })).toBeDefined();
  });
});
