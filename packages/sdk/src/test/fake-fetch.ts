// A scripted stand-in for fetch: each call gets the next answer of the script and is recorded, so tests
// can assert what was sent. No HTTP mocking library, no network.

export type Answer = Response | Error | ((request: Request) => Response | Promise<Response>);

export interface FakeFetch {
  fetch: typeof fetch;
  /** Every request received, in order (bodies still readable). */
  requests: Request[];
  /** When each request arrived (ms since the fake was created). */
  times: number[];
}

export function fakeFetch(...script: Answer[]): FakeFetch {
  const requests: Request[] = [];
  const times: number[] = [];
  const start = performance.now();
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    requests.push(request.clone());
    times.push(performance.now() - start);
    const answer = script.shift();
    if (answer === undefined)
      throw new Error(`fake fetch: no answer scripted for ${request.method} ${request.url}`);
    if (answer instanceof Error) throw answer;
    return typeof answer === "function" ? answer(request) : answer;
  }) as typeof globalThis.fetch;
  return { fetch, requests, times };
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "x-request-id": "req-ok", ...headers },
  });
}

export function problem(
  status: number,
  code: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Response {
  const body = {
    type: `urn:tracker:problem:${code}`,
    title: code,
    status,
    detail: `${code} happened`,
    code,
    requestId: "req-1",
    ...extra,
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/problem+json", "x-request-id": "req-1", ...headers },
  });
}

/** The error undici throws when nothing listens on the port. */
export function connectionRefused(): Error {
  return new TypeError("fetch failed", {
    cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
  });
}

/** The error undici throws when an established connection is reset. */
export function connectionReset(): Error {
  return new TypeError("fetch failed", {
    cause: Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }),
  });
}

/**
 * A streaming body that delivers `text` as UTF-8 cut at the given byte offsets (which may split a line,
 * a CRLF or a multi-byte character), then ends, or errors when `fail` is set.
 */
export function chunkedBody(text: string, cuts: number[] = [], fail?: Error): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  const bounds = [0, ...cuts.filter((c) => c > 0 && c < bytes.length), bytes.length];
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < bounds.length - 1) {
        controller.enqueue(bytes.slice(bounds[i], bounds[i + 1]));
        i++;
      } else if (fail) controller.error(fail);
      else controller.close();
    },
  });
}

export function eventStream(
  body: ReadableStream<Uint8Array>,
  headers: Record<string, string> = {},
): Response {
  return new Response(body, { status: 200, headers: { "content-type": "text/event-stream", ...headers } });
}
