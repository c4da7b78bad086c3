// Type-level tests: what the SDK's public surface accepts and returns. A change that would break a
// caller's code fails `npm run typecheck` here (each @ts-expect-error must stay an error), before any
// script breaks.
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type CallOptions,
  createTracker,
  type LIST_FILTERS,
  type ListFilters,
  type Page,
  type ProblemCode,
  type QueryOf,
  type ResponseInfo,
  readListFilters,
  responseOf,
  SCHEMA_RULES,
  type Schemas,
  type Tracker,
  TrackerError,
  type TrackerEvent,
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

  // Options accept an explicit undefined (exactOptionalPropertyTypes), as values read from the environment are.
  createTracker({ apiKey: process.env.TRACKER_API_KEY, workspace: undefined, timeoutMs: undefined });
  await tracker.users.list({ signal: undefined, headers: undefined });

  // Updates resolve to what they changed.
  expectTypeOf(await tracker.views.update("v", { name: "x" })).toEqualTypeOf<Schemas["View"]>();
  expectTypeOf(await tracker.members.update("u", { role: "guest" })).toEqualTypeOf<Schemas["User"]>();
  expectTypeOf(await tracker.workspaces.update({ name: "x" })).toEqualTypeOf<
    Schemas["WorkspaceMembership"]
  >();
  expectTypeOf(await tracker.teams.update("ENG", { name: "x" })).toEqualTypeOf<Schemas["Team"]>();

  // Every answer's request id and rate-limit state.
  expectTypeOf(responseOf(await tracker.users.list())).toEqualTypeOf<ResponseInfo | undefined>();
  expectTypeOf(tracker.lastResponse).toEqualTypeOf<ResponseInfo | undefined>();
  expectTypeOf<ResponseInfo["rateLimit"]["remaining"]>().toEqualTypeOf<number | null>();

  // Events are a union by name: `data` has that event's shape.
  for await (const e of tracker.events.stream()) {
    if (e.event === "changed") expectTypeOf(e.data).toEqualTypeOf<Schemas["ChangeEvent"]>();
    if (e.event === "connected") expectTypeOf(e.data.workspace).toBeString();
    // @ts-expect-error not an event of the contract
    if (e.event === "change") return;
    expectTypeOf<TrackerEvent["event"]>().toEqualTypeOf<"connected" | "changed" | "ping" | "reset">();
  }

  // The list filters are the list queries' parameters less workspace, sort and paging: no more, no fewer.
  type IssueFilterKeys = Exclude<
    keyof QueryOf<"listIssues">,
    "workspace" | "sort" | "limit" | "offset" | "cursor"
  >;
  expectTypeOf<(typeof LIST_FILTERS.issues)[number]>().toEqualTypeOf<IssueFilterKeys>();
  type ProjectFilterKeys = Exclude<
    keyof QueryOf<"listProjects">,
    "workspace" | "sort" | "limit" | "offset" | "cursor"
  >;
  expectTypeOf<(typeof LIST_FILTERS.projects)[number]>().toEqualTypeOf<ProjectFilterKeys>();
  expectTypeOf(readListFilters("issues", {})).toEqualTypeOf<ListFilters<"issues">>();
  expectTypeOf(readListFilters("issues", {}).special).toEqualTypeOf<QueryOf<"listIssues">["special"]>();

  // The contract's bounds, as literal numbers.
  expectTypeOf(SCHEMA_RULES.IssueCreate.title.maxLength).toEqualTypeOf<255>();
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
