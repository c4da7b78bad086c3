/** How far an upload is: bytes sent so far, and the whole size when known. */
export interface UploadProgress {
  sent: number;
  total: number | undefined;
}

/** The part of a browser's `XMLHttpRequest` an upload uses (the SDK is built without the DOM's types). */
interface Xhr {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  getAllResponseHeaders(): string;
  send(body: unknown): void;
  abort(): void;
  responseType: string;
  response: unknown;
  status: number;
  statusText: string;
  upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null };
  onload: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
}

const XhrClass = () => (globalThis as { XMLHttpRequest?: new () => Xhr }).XMLHttpRequest;

/**
 * Upload progress, the way each runtime can report it. A browser cannot stream a request body over
 * HTTP/1.1 with `fetch`, nor report how much of one is sent, so there the upload goes by
 * `XMLHttpRequest`, whose `upload.onprogress` does. Elsewhere (Node) the body is streamed through a
 * counter as `fetch` reads it.
 */
export function canReportWithXhr(data: unknown): data is Blob | Uint8Array {
  return typeof XhrClass() === "function" && (data instanceof Blob || data instanceof Uint8Array);
}

/**
 * Sends `request` (method, URL and headers) with `body` by `XMLHttpRequest`, reporting the bytes sent,
 * and answers a `Response` as `fetch` would. The page's cookies go with it as they would with `fetch`
 * (same origin).
 */
export function xhrUpload(
  request: Request,
  body: Blob | Uint8Array,
  onProgress: (progress: UploadProgress) => void,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const xhr = new (XhrClass()!)();
    xhr.open(request.method, request.url);
    xhr.responseType = "arraybuffer";
    request.headers.forEach((value, name) => {
      if (name !== "user-agent") xhr.setRequestHeader(name, value);
    });
    xhr.upload.onprogress = (e) =>
      onProgress({ sent: e.loaded, total: e.lengthComputable ? e.total : undefined });
    xhr.onload = () => {
      const headers = new Headers();
      for (const line of xhr
        .getAllResponseHeaders()
        .trim()
        .split(/[\r\n]+/)) {
        const colon = line.indexOf(":");
        if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      }
      resolve(
        new Response(xhr.response as ArrayBuffer, {
          status: xhr.status,
          statusText: xhr.statusText,
          headers,
        }),
      );
    };
    xhr.onerror = () => reject(new TypeError("The upload failed: the server could not be reached."));
    xhr.onabort = () =>
      reject(request.signal.reason ?? new DOMException("The upload was aborted.", "AbortError"));
    request.signal.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

/** The size of the pieces bytes in memory are sent in, each one counted. */
const PIECE = 64 * 1024;

/** `body` as a stream that calls `onProgress` as each piece is read by whoever sends it. */
export function countingStream(
  body: Blob | Uint8Array | ReadableStream<Uint8Array>,
  total: number | undefined,
  onProgress: (progress: UploadProgress) => void,
): ReadableStream<Uint8Array> {
  let sent = 0;
  const count = (chunk: Uint8Array) => {
    sent += chunk.byteLength;
    onProgress({ sent, total });
  };
  if (body instanceof Uint8Array) {
    let at = 0;
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= body.byteLength) return controller.close();
        const piece = body.subarray(at, at + PIECE);
        at += piece.byteLength;
        controller.enqueue(piece);
        count(piece);
      },
    });
  }
  const stream = body instanceof Blob ? (body.stream() as ReadableStream<Uint8Array>) : body;
  return stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      // Large chunks (a Blob may be read as one) are passed on in pieces, each counted as it goes.
      transform(chunk, controller) {
        for (let at = 0; at < chunk.byteLength; at += PIECE) {
          const piece = chunk.subarray(at, at + PIECE);
          controller.enqueue(piece);
          count(piece);
        }
      },
    }),
  );
}
