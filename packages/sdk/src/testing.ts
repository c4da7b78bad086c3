/**
 * Test helpers for code built on the SDK: a Tracker answered by a function instead of a server, so a test
 * sees exactly what would have gone over the wire. Import from "@tracker/sdk/testing".
 *
 *   const { tracker, sent } = fakeTracker(() => json(200, { issues: [anIssue()], nextOffset: null }));
 *   await myScript(tracker);
 *   expect(sent[0].query.get("special")).toBe("overdue");
 */
import type { Schemas } from "./operation-types.js";
import { createTracker, type Tracker } from "./tracker.js";

/** One request the Tracker under test sent, as the server would see it. */
export interface SentRequest {
  method: string;
  /** Path below /api/v1, e.g. `/issues`. */
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
}

export type Handler = (req: SentRequest) => Response | Promise<Response>;

/**
 * A Tracker whose `fetch` answers from `handler` and records every request, so tests see exactly what
 * would have gone over the wire. No HTTP mocking library: just an injected `fetch`.
 */
export function fakeTracker(handler: Handler): { tracker: Tracker; sent: SentRequest[] } {
  const sent: SentRequest[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const text = await request.text();
    const req: SentRequest = {
      method: request.method,
      path: url.pathname.replace(/^\/api\/v1/, ""),
      query: url.searchParams,
      headers: request.headers,
      body: text ? JSON.parse(text) : undefined,
    };
    sent.push(req);
    return handler(req);
  };
  const tracker = createTracker({ baseUrl: "http://tracker.test", apiKey: "trk_test", fetch, maxRetries: 0 });
  return { tracker, sent };
}

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "x-request-id": "req_test" },
  });
}

export function problem(
  status: number,
  code: string,
  detail: string,
  extra: Record<string, unknown> = {},
): Response {
  return new Response(
    JSON.stringify({
      type: `urn:tracker:problem:${code}`,
      title: code,
      status,
      detail,
      code,
      requestId: "req_test",
      ...extra,
    }),
    { status, headers: { "content-type": "application/problem+json", "x-request-id": "req_test" } },
  );
}

let number = 0;
export function anIssue(overrides: Partial<Schemas["Issue"]> = {}): Schemas["Issue"] {
  number += 1;
  return {
    id: `00000000-0000-4000-8000-${String(number).padStart(12, "0")}`,
    identifier: `ENG-${number}`,
    title: `Issue ${number}`,
    description: null,
    priority: 2,
    estimate: null,
    dueDate: null,
    delegate: null,
    team: { id: "00000000-0000-4000-8000-00000000000e", key: "ENG", name: "Engineering" },
    state: { id: "00000000-0000-4000-8000-0000000000a1", name: "In Progress", type: "started" },
    assignee: { id: "00000000-0000-4000-8000-0000000000b1", name: "Ada Lovelace", email: "ada@example.com" },
    project: null,
    cycle: null,
    labels: [],
    parentId: null,
    createdAt: "2025-01-01T00:00:00.000Z",
    updatedAt: "2025-01-02T00:00:00.000Z",
    completedAt: null,
    archivedAt: null,
    ...overrides,
  };
}
