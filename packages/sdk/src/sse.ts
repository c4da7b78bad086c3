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
  onRetry?: (ms: number) => void;
  /** Ends the iteration when aborted, even if the body itself is not tied to the signal. */
  signal?: AbortSignal;
}

/**
 * Parses a `text/event-stream` body as the HTML Living Standard describes: lines end in CRLF, LF or CR
 * (possibly split across chunks), `:` starts a comment, a blank line dispatches the event, events
 * without data are dropped, and the last event id persists until replaced.
 */
export async function* parseEventStream(
  body: ReadableStream<Uint8Array>,
  options: ParseEventStreamOptions = {},
): AsyncGenerator<RawServerSentEvent> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = "";
  let lastEventId = options.lastEventId;
  let eventType = "";
  let data: string[] = [];
  // A chunk ending in CR may be the first half of a CRLF: skip a leading LF in the next chunk.
  let skipLeadingLf = false;

  function* dispatchLine(line: string): Generator<RawServerSentEvent> {
    if (line === "") {
      if (data.length > 0) yield { event: eventType || "message", id: lastEventId, data: data.join("\n") };
      eventType = "";
      data = [];
      return;
    }
    if (line.startsWith(":")) return; // a comment, e.g. a keep-alive
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") eventType = value;
    else if (field === "data") data.push(value);
    else if (field === "id" && !value.includes("\0")) lastEventId = value;
    else if (field === "retry" && /^\d+$/.test(value)) options.onRetry?.(Number(value));
  }

  function* drainLines(): Generator<RawServerSentEvent> {
    let pos = 0;
    for (;;) {
      if (skipLeadingLf) {
        if (pos === buffer.length) break; // decide when the next chunk arrives
        if (buffer[pos] === "\n") pos++;
        skipLeadingLf = false;
      }
      const lf = buffer.indexOf("\n", pos);
      const cr = buffer.indexOf("\r", pos);
      const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      if (end === -1) break;
      const line = buffer.slice(pos, end);
      skipLeadingLf = buffer[end] === "\r";
      pos = end + 1;
      yield* dispatchLine(line);
    }
    buffer = buffer.slice(pos);
  }

  const stop = () => {
    reader.cancel().catch(() => {});
  };
  options.signal?.addEventListener("abort", stop, { once: true });
  if (options.signal?.aborted) stop();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      // At the end of the stream an event not yet ended by a blank line is incomplete: the standard drops it.
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      yield* drainLines();
    }
  } finally {
    // Runs when the consumer stops early too: release the connection.
    options.signal?.removeEventListener("abort", stop);
    await reader.cancel().catch(() => {});
  }
}
