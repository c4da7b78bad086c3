import { createParser } from "eventsource-parser";

/** One Server-Sent Event as it arrives on the wire, before its data is interpreted. */
export interface RawServerSentEvent {
  /** The `event:` field; `message` when absent. */
  event: string;
  /** The last `id:` seen on the stream so far (it carries over to later events), if any. */
  id: string | undefined;
  /** The `data:` lines joined by newlines. */
  data: string;
}

export interface ParseEventStreamOptions {
  /** The id to report until the stream sends one (the `Last-Event-ID` the connection was opened with). */
  lastEventId?: string | undefined;
  /** Called with the reconnection delay a `retry:` field asks for, in ms. */
  onRetry?: ((ms: number) => void) | undefined;
  /** Ends the iteration when aborted, even if the body itself is not tied to the signal. */
  signal?: AbortSignal | undefined;
}

/**
 * Reads a `text/event-stream` body with `eventsource-parser`, which follows the HTML Living Standard:
 * CRLF, LF or CR line ends (split across chunks too), `:` comments, events dispatched on a blank line,
 * events without data dropped, a stream's unfinished last event dropped. On top of it, the last event id
 * carries over to later events, as `EventSource.lastEventId` does. (One difference from the standard: an
 * `id:` in an event without data is dropped with it; the contract's stream never sends one.)
 */
export async function* parseEventStream(
  body: ReadableStream<Uint8Array>,
  options: ParseEventStreamOptions = {},
): AsyncGenerator<RawServerSentEvent> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  const ready: RawServerSentEvent[] = [];
  let lastEventId = options.lastEventId;
  const parser = createParser({
    onEvent(event) {
      if (event.id !== undefined) lastEventId = event.id;
      ready.push({ event: event.event ?? "message", id: lastEventId, data: event.data });
    },
    onRetry: (ms) => options.onRetry?.(ms),
  });

  const stop = () => {
    reader.cancel().catch(() => {});
  };
  options.signal?.addEventListener("abort", stop, { once: true });
  if (options.signal?.aborted) stop();
  let endsInCr = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        // The parser holds a line ended by a lone CR until it sees whether LF follows; at the end of the
        // stream nothing follows, so that CR ends its line (and may end the last event).
        if (endsInCr) parser.feed("\n");
        yield* ready.splice(0);
        return;
      }
      const text = decoder.decode(value, { stream: true });
      if (text === "") continue;
      endsInCr = text.endsWith("\r");
      parser.feed(text);
      yield* ready.splice(0);
    }
  } finally {
    // Runs when the consumer stops early too: release the connection.
    options.signal?.removeEventListener("abort", stop);
    await reader.cancel().catch(() => {});
  }
}
