/**
 * What the page's requests tell about the connection to the server, for the live badge: the event
 * stream opened or ended, or a request that could not reach the server at all. The SDK reopens a dropped
 * stream by itself (the contract's `GET /events` with `Last-Event-ID`) without saying so; this fetch,
 * given to the SDK, watches the stream's answer so the badge can.
 */
export type ConnectionSignal = "stream-open" | "stream-closed" | "unreachable";

const listeners = new Set<(signal: ConnectionSignal) => void>();

export function onConnection(listener: (signal: ConnectionSignal) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emit(signal: ConnectionSignal) {
  for (const listener of listeners) listener(signal);
}

/** `fetch` for the SDK: the same request, with the event stream's end and unreachable servers reported. */
export async function watchedFetch(request: Request): Promise<Response> {
  const stream = new URL(request.url).pathname.endsWith("/events");
  let response: Response;
  try {
    response = await globalThis.fetch(request);
  } catch (error) {
    // Aborted by the page itself (a page left, a stream replaced) says nothing about the server.
    if (!request.signal.aborted) emit("unreachable");
    throw error;
  }
  if (!stream || !response.ok || !response.body) return response;
  emit("stream-open");
  const reader = response.body.getReader();
  let ended = false;
  const end = () => {
    if (!ended) emit("stream-closed");
    ended = true;
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          end();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        end();
        controller.error(error);
      }
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
