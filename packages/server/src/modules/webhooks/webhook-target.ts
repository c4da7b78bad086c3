import http from "node:http";
import https from "node:https";
import net from "node:net";
import {
  bareHost,
  isPublicAddress,
  OutboundUnreachable,
  outboundAgent,
  resolvePublic,
  UNREACHABLE,
} from "../../net/outbound-guard.js";

/**
 * Where outbound webhooks may go, and the one function that sends them. Safe by default (the contract's
 * `createWebhook`): only `http`/`https` URLs without credentials, never to an address that is not public
 * unless the deployment allows it (`TRACKER_OUTBOUND_ALLOW_PRIVATE=1`, or `TRACKER_WEBHOOKS_ALLOW_PRIVATE=1`
 * for webhooks alone). Which addresses are public, and the check where the connection is made (so a name
 * that later resolves elsewhere, DNS rebinding, is refused too), are the outbound guard's
 * (`net/outbound-guard.ts`). Redirects are not followed, each attempt has a time limit, and no more than
 * {@link BODY_PREFIX_BYTES} of the answer is read.
 */

export const BODY_PREFIX_BYTES = 1024;

export class TargetRefused extends Error {}

/** The URL as a sendable target, or why it is not one. */
export function parseTarget(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TargetRefused("not a URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new TargetRefused("only http and https URLs");
  if (url.username || url.password) throw new TargetRefused("a URL with credentials is not accepted");
  if (!url.hostname) throw new TargetRefused("the URL has no host");
  return url;
}

/**
 * Checks a target before it is stored: the URL's form, and, unless private targets are allowed, its
 * address (an IP literal) or every address its name resolves to now. Sending checks again at connect time.
 */
export async function checkTarget(value: string, allowPrivate: boolean): Promise<URL> {
  const url = parseTarget(value);
  if (allowPrivate) return url;
  // A name that does not resolve yet may later: each attempt checks what it connects to.
  if ((await resolvePublic(url.hostname)) === "refused")
    throw new TargetRefused(`${bareHost(url.hostname)} ${UNREACHABLE}`);
  return url;
}

export interface SendResult {
  status: number | null;
  bodyPrefix: string | null;
  durationMs: number;
  error: string | null;
}

/**
 * POSTs `body` to `url` with `headers`, once: no redirect is followed (a 3xx is a failed attempt like any
 * other non-2xx), the whole attempt is bounded by `timeoutMs`, and only the first
 * {@link BODY_PREFIX_BYTES} bytes of the answer are kept.
 */
export function send(
  url: string,
  headers: Record<string, string>,
  body: string,
  opts: { timeoutMs: number; allowPrivate: boolean },
): Promise<SendResult> {
  const started = performance.now();
  const done = (status: number | null, bodyPrefix: string | null, error: string | null): SendResult => ({
    status,
    bodyPrefix,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  let target: URL;
  try {
    target = parseTarget(url);
    const host = bareHost(target.hostname);
    // The guarded agent refuses it too; refused here, no socket is asked for.
    if (!opts.allowPrivate && net.isIP(host) && !isPublicAddress(host)) throw new OutboundUnreachable();
  } catch (err) {
    return Promise.resolve(done(null, null, `refused: ${(err as Error).message}`));
  }
  const secure = target.protocol === "https:";
  const agent = outboundAgent(secure ? "https:" : "http:", opts.allowPrivate);
  const payload = Buffer.from(body, "utf8");
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = (secure ? https : http).request(target, {
      method: "POST",
      agent,
      headers: {
        ...headers,
        "content-type": "application/json",
        "content-length": String(payload.length),
        "user-agent": "Tracker-Webhooks/1",
      },
    });
    const timer = setTimeout(() => {
      finish(done(null, null, `timed out after ${opts.timeoutMs} ms`));
      req.destroy();
    }, opts.timeoutMs);
    // Refused or failed on the network, one message: the log tells nothing of what is at the address.
    req.on("error", () => finish(done(null, null, `refused: ${UNREACHABLE}`)));
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const answer = () => {
        const prefix = Buffer.concat(chunks)
          .subarray(0, BODY_PREFIX_BYTES)
          .toString("utf8")
          .replace(/\uFFFD+$/, "");
        finish(done(res.statusCode ?? null, prefix, null));
      };
      res.on("data", (chunk: Buffer) => {
        if (size < BODY_PREFIX_BYTES) chunks.push(chunk);
        size += chunk.length;
        if (size >= BODY_PREFIX_BYTES) {
          answer();
          res.destroy();
        }
      });
      res.on("end", answer);
      res.on("error", answer);
      res.on("close", answer);
    });
    req.end(payload);
  });
}
