import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import type { Duplex } from "node:stream";
import ipaddr from "ipaddr.js";

/**
 * The one guard for every request the server makes to an address a user chose: webhook targets
 * (openapi.yaml, `createWebhook`) and a workspace's single sign-on provider (`PUT /sso`, and the sign-in's
 * later token, userinfo and key requests, all made by openid-client through {@link outboundFetch}).
 *
 * Only public unicast addresses are reached, unless the deployment allows the others
 * (`TRACKER_OUTBOUND_ALLOW_PRIVATE=1`, for development and tests). The address is classified by ipaddr.js,
 * an embedded IPv4 address (IPv4-mapped, IPv4-compatible, NAT64) by its own class. It is checked where the
 * connection is made, by the agents' `lookup` and `createConnection`, so the socket connects to the address
 * that was checked and no other: a name that resolves elsewhere later (DNS rebinding) is refused too.
 * Redirects are never followed. Every refusal and every network failure reads the same
 * ({@link UNREACHABLE}): no port state, no error code, no library's path tells the caller what is there.
 */

/** What every refusal and every network failure says. */
export const UNREACHABLE = "could not be reached, or is not a public address";

/** A request refused by the guard, or one that failed on the network: always {@link UNREACHABLE}. */
// A TypeError, as `fetch` itself fails: openid-client passes it on as it is.
export class OutboundUnreachable extends TypeError {
  readonly code = "EOUTBOUND";
  constructor(cause?: unknown) {
    super(UNREACHABLE, cause === undefined ? undefined : { cause });
  }
}

/** Whether `err`, or an error it was caused by, is the guard's. */
export function isOutboundUnreachable(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++)
    if (e instanceof OutboundUnreachable) return true;
  return false;
}

/** `TRACKER_OUTBOUND_ALLOW_PRIVATE=1` (or `true`): loopback, private and link-local addresses are reached too. */
export function outboundAllowsPrivate(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.TRACKER_OUTBOUND_ALLOW_PRIVATE;
  return value === "1" || value === "true";
}

/** The IPv4 address at the end of an IPv6 one (its last 32 bits). */
const lastIPv4 = (v6: ipaddr.IPv6): ipaddr.IPv4 => {
  const [high, low] = v6.parts.slice(-2) as [number, number];
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
};

const NAT64 = ipaddr.parseCIDR("64:ff9b::/96");
/** Global unicast (RFC 4291, 2000::/3): IPv6 outside it is unassigned or special. */
const GLOBAL_UNICAST = ipaddr.parseCIDR("2000::/3");

/**
 * Whether an IP address (v4 or v6) is a public unicast address. IPv4 by ipaddr.js's ranges (loopback,
 * private, link-local, carrier-grade NAT, unspecified, broadcast, multicast, reserved and documentation,
 * AS112, AMT: all but `unicast` refused). IPv6 likewise (unique-local, link-local, multicast, discard,
 * documentation, benchmarking, ORCHID, 6to4, Teredo, the IPv4-translated and local-use NAT64 prefixes
 * refused), and outside 2000::/3; an IPv4-mapped (::ffff:0:0/96), IPv4-compatible (::/96) or NAT64
 * (64:ff9b::/96) address is as public as the IPv4 address it carries.
 */
export function isPublicAddress(address: string): boolean {
  // Only the plain notations: net.isIP refuses the shorthand forms ipaddr.js would also read ("127.1").
  if (!net.isIP(address)) return false;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return false;
  }
  if (parsed.kind() === "ipv4") return parsed.range() === "unicast";
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return isPublicAddress(v6.toIPv4Address().toString());
  const range = v6.range();
  if (range === "unspecified" || range === "loopback") return false;
  // IPv4-compatible (::a.b.c.d, deprecated by RFC 4291): ipaddr.js calls it unicast, yet it carries an IPv4 address.
  if (v6.parts.slice(0, 6).every((p) => p === 0)) return isPublicAddress(lastIPv4(v6).toString());
  if (v6.match(NAT64)) return isPublicAddress(lastIPv4(v6).toString());
  return range === "unicast" && v6.match(GLOBAL_UNICAST);
}

/** A URL's host without the brackets of an IPv6 literal. */
export const bareHost = (hostname: string): string => hostname.replace(/^\[|\]$/g, "");

/** Names that are this machine by definition (RFC 6761), whatever the resolver says. */
const isLocalName = (host: string): boolean => {
  const name = host.toLowerCase().replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost");
};

/**
 * Whether `hostname` may be reached as far as can be told without resolving it: an IP literal that is
 * public, or a name that is not `localhost`. Resolving and connecting check again.
 */
export function hostMayBePublic(hostname: string): boolean {
  const host = bareHost(hostname);
  if (net.isIP(host)) return isPublicAddress(host);
  return !isLocalName(host);
}

/**
 * The addresses `hostname` resolves to now, refused unless every one is public; a name that does not
 * resolve is `"unresolved"` (it may later: connecting checks what it then resolves to).
 */
export async function resolvePublic(hostname: string): Promise<"public" | "unresolved" | "refused"> {
  const host = bareHost(hostname);
  if (!hostMayBePublic(host)) return "refused";
  if (net.isIP(host)) return "public";
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true });
  } catch {
    return "unresolved";
  }
  return addresses.length > 0 && addresses.every((a) => isPublicAddress(a.address)) ? "public" : "refused";
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * A socket `lookup` that resolves as usual and answers only checked addresses: none at all if any of them
 * is not public, so the socket can connect to nothing else.
 */
function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  if (isLocalName(hostname)) {
    process.nextTick(callback, new OutboundUnreachable(), []);
    return;
  }
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(new OutboundUnreachable(err), []);
    if (addresses.length === 0 || addresses.some((a) => !isPublicAddress(a.address)))
      return callback(new OutboundUnreachable(), []);
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
}

type CreateConnection = (
  options: http.ClientRequestArgs,
  callback?: (err: Error | null, stream: Duplex) => void,
) => Duplex | null | undefined;

/**
 * The agent's connections guarded: an IP literal (which the socket connects to without a lookup) checked
 * here, a name by {@link guardedLookup}.
 */
function guard<A extends http.Agent>(agent: A): A {
  const create = agent.createConnection.bind(agent) as CreateConnection;
  const guarded: CreateConnection = (options, callback) => {
    const host = bareHost(options.host ?? options.hostname ?? "localhost");
    if (net.isIP(host) && !isPublicAddress(host)) {
      callback?.(new OutboundUnreachable(), undefined as never);
      return undefined;
    }
    return create({ ...options, lookup: guardedLookup as never }, callback);
  };
  agent.createConnection = guarded as typeof agent.createConnection;
  return agent;
}

const AGENT_OPTIONS = { keepAlive: true, maxSockets: 8 };
const agents = {
  open: { http: new http.Agent(AGENT_OPTIONS), https: new https.Agent(AGENT_OPTIONS) },
  guarded: {
    http: guard(new http.Agent(AGENT_OPTIONS)),
    https: guard(new https.Agent(AGENT_OPTIONS)),
  },
};

/** The agent for a URL's protocol: guarded, or (private addresses allowed) plain. */
export function outboundAgent(protocol: "http:" | "https:", allowPrivate: boolean): http.Agent {
  const set = allowPrivate ? agents.open : agents.guarded;
  return protocol === "https:" ? set.https : set.http;
}

/** The most of an answer {@link outboundFetch} reads (discovery documents and key sets are a few KB). */
export const FETCH_MAX_BYTES = 1024 * 1024;

interface FetchOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: ConstructorParameters<typeof Response>[0];
  signal?: AbortSignal | null;
}

const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

/**
 * A `fetch` through the guarded agents, in the form openid-client's `customFetch` takes: redirects are
 * answered as they are (never followed), at most {@link FETCH_MAX_BYTES} are read, and every refusal or
 * network failure (an abort by `signal` included) throws {@link OutboundUnreachable}. Without
 * `allowPrivate`, each request asks {@link outboundAllowsPrivate}.
 */
export function outboundFetch(allowPrivate?: boolean) {
  return async (input: string, init: FetchOptions = {}): Promise<Response> => {
    const open = allowPrivate ?? outboundAllowsPrivate();
    let url: URL;
    try {
      url = new URL(input);
    } catch (err) {
      throw new OutboundUnreachable(err);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new OutboundUnreachable();
    const headers: Record<string, string> = { ...init.headers };
    let payload: Buffer | undefined;
    if (init.body !== undefined && init.body !== null) {
      // The body as fetch would send it (a form's URLSearchParams, a string, bytes), with its type.
      const body = new Response(init.body);
      payload = Buffer.from(await body.arrayBuffer());
      const type = body.headers.get("content-type");
      if (type && !Object.keys(headers).some((h) => h.toLowerCase() === "content-type"))
        headers["content-type"] = type;
      headers["content-length"] = String(payload.length);
    }
    const secure = url.protocol === "https:";
    return new Promise<Response>((resolve, reject) => {
      const fail = (err?: unknown) => reject(new OutboundUnreachable(err));
      const req = (secure ? https : http).request(url, {
        method: init.method ?? "GET",
        headers,
        agent: outboundAgent(url.protocol as "http:" | "https:", open),
        signal: init.signal ?? undefined,
      });
      req.on("error", fail);
      req.on("response", (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > FETCH_MAX_BYTES) {
            req.destroy();
            return fail();
          }
          chunks.push(chunk);
        });
        res.on("error", fail);
        res.on("aborted", () => fail());
        res.on("end", () => {
          const answer = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value === undefined) continue;
            for (const v of Array.isArray(value) ? value : [value]) answer.append(name, v);
          }
          const status = res.statusCode ?? 0;
          if (status < 200 || status > 599) return fail();
          resolve(
            new Response(NULL_BODY_STATUS.has(status) ? null : Buffer.concat(chunks), {
              status,
              statusText: res.statusMessage,
              headers: answer,
            }),
          );
        });
      });
      req.end(payload);
    });
  };
}
