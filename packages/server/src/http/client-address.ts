import type { Middleware } from "koa";
import proxyAddr from "proxy-addr";

/** Whether the address at hop `i` (0: the socket's peer) may say who is in front of it. */
export type ProxyTrust = (address: string, i: number) => boolean;

/**
 * The operator's `TRACKER_TRUSTED_PROXIES` as a trust function: a hop count trusts that many proxies in
 * front, whoever they are; a list trusts the addresses and ranges it names; nothing trusts no one.
 */
export function compileTrust(trusted: string[] | number): ProxyTrust {
  if (typeof trusted === "number") return (_address, i) => i < trusted;
  return proxyAddr.compile(trusted);
}

/**
 * The step that says who is calling, before any other reads it: the client's address is the socket's
 * peer, or, when that peer is a trusted proxy, the nearest address of `X-Forwarded-For` that no trusted
 * proxy added (`proxy-addr`, as Express computes it). It is set as `ctx.ip`, which the sign-in throttle
 * and the OAuth registration and device limits key on.
 *
 * Koa's own `app.proxy` trusts every forwarded header from anyone, so the headers are made to say only
 * what a trusted proxy said before anything (Koa, the OAuth provider's own Koa app) reads them: from an
 * untrusted peer `X-Forwarded-For`, `-Proto` and `-Host` are removed, so `ctx.protocol`, `ctx.secure`
 * (the session cookie's `Secure`, HSTS) and `ctx.host` are the connection's own; from a trusted one
 * `X-Forwarded-For` is replaced by the client's address alone.
 */
export function clientAddress(trust: ProxyTrust): Middleware {
  return (ctx, next) => {
    const req = ctx.req;
    const peer = req.socket.remoteAddress ?? "";
    const headers = req.headers;
    if (peer && trust(peer, 0)) {
      const client = plain(proxyAddr(req, trust));
      headers["x-forwarded-for"] = client;
      ctx.request.ip = client;
    } else {
      delete headers["x-forwarded-for"];
      delete headers["x-forwarded-proto"];
      delete headers["x-forwarded-host"];
      ctx.request.ip = plain(peer);
    }
    return next();
  };
}

/** An IPv4 client on a dual-stack socket (`::ffff:192.0.2.1`) as itself, so it has one key whichever way it came. */
const plain = (address: string) =>
  /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address;
