import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net, { BlockList } from "node:net";

/**
 * Where outbound webhooks may go, and the one function that sends them. Safe by default (the contract's
 * `createWebhook`): only `http`/`https` URLs without credentials, never to an address in a private, loopback,
 * link-local, shared, documentation or multicast range unless the deployment allows it
 * (`TRACKER_WEBHOOKS_ALLOW_PRIVATE=1`). The address is checked where the connection is made (the socket's
 * `lookup`), not only when the URL is registered, so a name that later resolves elsewhere (DNS rebinding)
 * is refused too. Redirects are not followed, each attempt has a time limit, and no more than
 * {@link BODY_PREFIX_BYTES} of the answer is read.
 */

export const BODY_PREFIX_BYTES = 1024;

const NON_PUBLIC = new BlockList();
for (const [net4, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  NON_PUBLIC.addSubnet(net4, prefix, "ipv4");
for (const [net6, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const)
  NON_PUBLIC.addSubnet(net6, prefix, "ipv6");

/** Whether an IP address (v4 or v6, v4-mapped v6 included) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return !NON_PUBLIC.check(address, "ipv4");
  if (family !== 6) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPublicAddress(mapped[1]!);
  const lower = address.toLowerCase();
  if (lower.startsWith("::ffff:")) return false;
  return !NON_PUBLIC.check(address, "ipv6");
}

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

const bareHost = (hostname: string) => hostname.replace(/^\[|\]$/g, "");

/**
 * Checks a target before it is stored: the URL's form, and, unless private targets are allowed, its
 * address (an IP literal) or every address its name resolves to now. Sending checks again at connect time.
 */
export async function checkTarget(value: string, allowPrivate: boolean): Promise<URL> {
  const url = parseTarget(value);
  if (allowPrivate) return url;
  const host = bareHost(url.hostname);
  if (net.isIP(host)) {
    if (!isPublicAddress(host)) throw new TargetRefused(`${host} is not a public address`);
    return url;
  }
  if (host === "localhost" || host.endsWith(".localhost"))
    throw new TargetRefused(`${host} is not a public host`);
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true });
  } catch {
    // A name that does not resolve yet may later: each attempt checks what it connects to.
    return url;
  }
  const refused = addresses.find((a) => !isPublicAddress(a.address));
  if (refused)
    throw new TargetRefused(`${host} resolves to ${refused.address}, which is not a public address`);
  return url;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/** A socket `lookup` that resolves as usual and refuses any non-public address it finds. */
function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused) {
      const e: NodeJS.ErrnoException = new Error(
        `${hostname} resolved to ${refused.address}, not a public address`,
      );
      e.code = "ETARGETREFUSED";
      return callback(e, []);
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    if (!first)
      return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), []);
    callback(null, first.address, first.family);
  });
}

const agents = {
  open: {
    http: new http.Agent({ keepAlive: true, maxSockets: 8 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 8 }),
  },
  guarded: {
    http: new http.Agent({ keepAlive: true, maxSockets: 8, lookup: guardedLookup as never }),
    https: new https.Agent({ keepAlive: true, maxSockets: 8, lookup: guardedLookup as never }),
  },
};

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
    // An IP literal is connected to without a lookup: checked here instead.
    if (!opts.allowPrivate && net.isIP(host) && !isPublicAddress(host))
      throw new TargetRefused(`${host} is not a public address`);
  } catch (err) {
    return Promise.resolve(done(null, null, `refused: ${(err as Error).message}`));
  }
  const secure = target.protocol === "https:";
  const agent = (opts.allowPrivate ? agents.open : agents.guarded)[secure ? "https" : "http"];
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
    req.on("error", (err: NodeJS.ErrnoException) => {
      const refused = err.code === "ETARGETREFUSED";
      finish(
        done(null, null, refused ? `refused: ${err.message}` : `${err.code ?? "error"}: ${err.message}`),
      );
    });
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
