import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { Readable } from "node:stream";

const NULL_BODY = new Set([101, 204, 205, 304]);

function responseHeaders(message: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/**
 * The SDK's transport for the CLI: one request over node:http(s), answered as a fetch `Response`. Node's
 * own fetch compiles its HTTP parser (WebAssembly) on the first request of every process, which costs a
 * short-lived command more than the request itself (about 150 ms of a 400 ms run on a small machine);
 * node:http's parser is built in. Everything else (retries, time limits, aborts, errors) stays the SDK's.
 */
export async function nodeFetch(input: Request): Promise<Response> {
  const url = new URL(input.url);
  const body = input.body ? Buffer.from(await input.arrayBuffer()) : undefined;
  const headers: Record<string, string> = {};
  input.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (body) headers["content-length"] = String(body.length);
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, { method: input.method, headers, signal: input.signal }, (res) => {
      const status = res.statusCode ?? 502;
      const stream = NULL_BODY.has(status) || input.method === "HEAD" ? null : Readable.toWeb(res);
      if (!stream) res.resume();
      const response = new Response(stream as ReadableStream<Uint8Array> | null, {
        status,
        statusText: res.statusMessage ?? "",
        headers: responseHeaders(res),
      });
      Object.defineProperty(response, "url", { value: input.url });
      resolve(response);
    });
    // As fetch does: a failure to connect is a TypeError whose cause carries the socket's code.
    req.on("error", (error) =>
      reject(input.signal.aborted ? input.signal.reason : new TypeError("fetch failed", { cause: error })),
    );
    req.end(body);
  });
}
