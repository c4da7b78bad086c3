/**
 * The contract's "Conditional requests", from the client's side: the client keeps the `ETag` and the body
 * of the reads it made (the last `maxEntries`, each up to `maxBytes`) and sends the tag back in
 * `If-None-Match`; a `304 Not Modified` is answered from what it kept, as the `200` it stands for, with the
 * 304's own headers (its request id) over the kept ones. Callers see the same answer either way; the server
 * sent no body and did not count the call against the rate limit.
 *
 * Kept per URL, key and workspace, so one key's copy never answers another's call. Event streams, writes
 * and calls that set their own `If-None-Match` pass through untouched.
 */
export function revalidatingFetch(
  fetch: (request: Request) => Promise<Response>,
  options: { maxEntries?: number; maxBytes?: number } = {},
): (request: Request) => Promise<Response> {
  const maxEntries = options.maxEntries ?? 200;
  const maxBytes = options.maxBytes ?? 2 * 1024 * 1024;
  const kept = new Map<string, { etag: string; body: ArrayBuffer; headers: [string, string][] }>();
  return async (request) => {
    if (
      request.method !== "GET" ||
      request.headers.has("if-none-match") ||
      request.headers.get("accept")?.includes("text/event-stream")
    )
      return fetch(request);
    const key = [
      request.url,
      request.headers.get("authorization") ?? "",
      request.headers.get("x-service-workspace") ?? "",
    ].join("\n");
    const hit = kept.get(key);
    if (hit) request.headers.set("If-None-Match", hit.etag);
    const response = await fetch(request);
    if (response.status === 304 && hit) {
      // Most recently used last: the first entry is the one to drop. A Response copies the bytes it is
      // given, so the kept body is never handed out itself.
      kept.delete(key);
      kept.set(key, hit);
      const headers = new Headers(hit.headers);
      for (const [name, value] of response.headers) headers.set(name, value);
      return withUrl(new Response(hit.body, { status: 200, statusText: "OK", headers }), response.url);
    }
    const etag = response.headers.get("etag");
    if (response.status !== 200 || !etag) {
      if (hit) kept.delete(key);
      return response;
    }
    const body = await response.arrayBuffer();
    if (body.byteLength <= maxBytes) {
      // The body is kept decoded: the headers that described its encoding on the wire no longer apply.
      const headers = [...response.headers].filter(
        ([name]) => name !== "content-encoding" && name !== "content-length",
      );
      kept.delete(key);
      kept.set(key, { etag, body, headers });
      if (kept.size > maxEntries) kept.delete(kept.keys().next().value!);
    } else kept.delete(key);
    const copy = new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    return withUrl(copy, response.url);
  };
}

/** A constructed Response has no URL; the one it stands for had one, which error messages name. */
function withUrl(response: Response, url: string): Response {
  Object.defineProperty(response, "url", { value: url });
  return response;
}
