import type { ServerResponse } from "node:http";
import type { Middleware } from "koa";

const CSP = "Content-Security-Policy";

/**
 * The web board's pages (`/`, every client route such as `/consent/<uid>`, the page that asks for a
 * build): the board is Vite's output, scripts and styles from files of its own, no inline script and no
 * `eval`. Styles allow `'unsafe-inline'` for the style attributes and `<style>` elements React and Radix
 * write (positions of menus and popovers, scroll locks); images allow `data:` and `blob:` (the favicon,
 * previews of files being attached); the API and the event stream are the same origin.
 */
export const BOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join("; ");

/** The API reference (`/docs`, `http/docs.ts`): one page with its own `<style>`, no script at all. */
export const DOCS_CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "img-src 'self' data:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

/**
 * Pages the OAuth provider renders under `/oauth` (the device grant's, `oauth/device-pages.ts`): forms
 * posting to this server and inline style attributes. `script-src` is there for the provider to add the
 * hash of a script it writes itself (`oidc-provider` appends it to this header when it finds one).
 */
export const OAUTH_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'unsafe-inline'",
  "img-src 'self' data:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join("; ");

/**
 * The authorization endpoint (`/oauth/auth`, and its resumption after consent): as {@link OAUTH_CSP} but
 * without `form-action`, since with `response_mode=form_post` its answer is a form that posts the code to
 * the client's redirect URI, another origin.
 */
export const OAUTH_AUTHORIZE_CSP = OAUTH_CSP.replace(/; form-action 'self'$/, "");

/** Every HTML page: never framed, no referrer beyond this origin, no device features. */
const HTML_HEADERS: [string, string][] = [
  ["X-Frame-Options", "DENY"],
  // Not `no-referrer`: under it a browser sends `Origin: null` with same-origin POSTs, and the session
  // CSRF check (`http/session.ts`) takes the Origin a browser sends as its proof of the page's origin.
  ["Referrer-Policy", "strict-origin-when-cross-origin"],
  ["Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=()"],
];

/** A year of https only; only ever sent over https (a browser ignores it over http anyway). */
export const HSTS = "max-age=31536000";

function policyFor(path: string): string {
  if (path === "/docs") return DOCS_CSP;
  if (path === "/oauth/auth" || path.startsWith("/oauth/auth/")) return OAUTH_AUTHORIZE_CSP;
  if (path.startsWith("/oauth/")) return OAUTH_CSP;
  return BOARD_CSP;
}

/**
 * The step that puts the browser's defences on every answer, as its headers are written: `nosniff` on
 * all (no answer is ever read as another type: the file downloads of `modules/attachments/` above all),
 * HSTS on all over https (`ctx.secure`, which follows `X-Forwarded-Proto` only from a trusted proxy:
 * `client-address.ts`), and on every `text/html` answer the page's Content-Security-Policy (unless the
 * answer set its own), `X-Frame-Options`, `Referrer-Policy` and `Permissions-Policy`.
 *
 * Applied when the headers go out (`writeHead`), not after the rest of the pipeline returns: the OAuth
 * provider writes its pages straight to the socket (`oauth/mount.ts`), and an answer's type is known only
 * then. Under `/oauth` the policy is set beforehand as well, for the provider to extend with a script's
 * hash; an answer there that is not HTML drops it again.
 */
export function securityHeaders(): Middleware {
  return (ctx, next) => {
    const res = ctx.res;
    const policy = policyFor(ctx.path);
    const preset = ctx.path.startsWith("/oauth/") ? policy : undefined;
    if (preset) res.setHeader(CSP, preset);
    const hsts = ctx.secure;
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      decorate(this, policy, preset, hsts);
      return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
    } as typeof res.writeHead;
    return next();
  };
}

function decorate(res: ServerResponse, policy: string, preset: string | undefined, hsts: boolean): void {
  if (res.headersSent) return;
  if (!res.hasHeader("X-Content-Type-Options")) res.setHeader("X-Content-Type-Options", "nosniff");
  if (hsts && !res.hasHeader("Strict-Transport-Security")) res.setHeader("Strict-Transport-Security", HSTS);
  const type = String(res.getHeader("Content-Type") ?? "");
  if (!/^text\/html\b/i.test(type)) {
    if (preset && res.getHeader(CSP) === preset) res.removeHeader(CSP);
    return;
  }
  if (!res.hasHeader(CSP)) res.setHeader(CSP, policy);
  for (const [name, value] of HTML_HEADERS) if (!res.hasHeader(name)) res.setHeader(name, value);
}
