import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type { Middleware } from "koa";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".txt": "text/plain; charset=utf-8",
  ".woff2": "font/woff2",
};

/**
 * Paths the web board never answers: the API, its reference, the health probe and the OAuth server's
 * paths keep their own 404s.
 */
const NOT_THE_BOARD = /^\/(api|docs|health|oauth|\.well-known)(\/|$)/;

const MISSING_BUILD = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tracker</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; line-height: 1.5">
<h1>Tracker</h1>
<p>The web board is not built. Run <code>npm run build</code> (or <code>npm start</code>, which builds it) in
the checkout, then reload.</p>
<p>The API is at <a href="/api/v1/openapi.json"><code>/api/v1</code></a>; its reference is at
<a href="/docs"><code>/docs</code></a>.</p>
</body></html>
`;

/**
 * Where `@tracker/web` keeps its build, found through the package resolver rather than a path relative to
 * this file, so it is the same whether the server runs from `src` (tests) or `dist`. Undefined when the
 * package is not installed.
 */
export function webBuildDir(): string | undefined {
  try {
    const manifest = createRequire(import.meta.url).resolve("@tracker/web/package.json");
    return path.join(path.dirname(manifest), "dist");
  } catch {
    return undefined;
  }
}

async function fileAt(file: string): Promise<number | undefined> {
  try {
    const info = await stat(file);
    return info.isFile() ? info.size : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Serves the web board's build at `/`: files as they are, hashed `/assets/` for a year (their names change
 * with their content), and `index.html` for every other page path so client routes (`/ENG/board`,
 * `/issue/ENG-12`) load the app. A pre-compressed `.gz` beside a file is sent to clients that accept gzip.
 * Without a build, `/` says how to make one. Only reached for requests no API route took.
 */
export function webMiddleware(dir: string | undefined = webBuildDir()): Middleware {
  return async (ctx, next) => {
    if ((ctx.method !== "GET" && ctx.method !== "HEAD") || NOT_THE_BOARD.test(ctx.path)) return next();
    let relative: string;
    try {
      relative = decodeURIComponent(ctx.path);
    } catch {
      return next();
    }
    if (relative.includes("\0")) return next();
    const index = dir ? path.join(dir, "index.html") : undefined;
    if (!dir || !index || (await fileAt(index)) === undefined) {
      if (path.extname(relative)) return next();
      ctx.status = 200;
      ctx.type = "text/html; charset=utf-8";
      ctx.set("Cache-Control", "no-store");
      ctx.body = MISSING_BUILD;
      return;
    }
    const requested = path.join(dir, path.normalize(relative));
    let file = requested.startsWith(dir + path.sep) ? requested : index;
    let size = await fileAt(file);
    if (size === undefined) {
      // A missing asset is a 404; a page path (no extension) is a client route.
      if (path.extname(relative)) return next();
      file = index;
      size = await fileAt(file);
      if (size === undefined) return next();
    }
    const ext = path.extname(file);
    ctx.type = TYPES[ext] ?? "application/octet-stream";
    ctx.set(
      "Cache-Control",
      relative.startsWith("/assets/") && file !== index ? "public, max-age=31536000, immutable" : "no-cache",
    );
    ctx.vary("Accept-Encoding");
    if (ctx.acceptsEncodings("gzip", "identity") === "gzip") {
      const gzSize = await fileAt(`${file}.gz`);
      if (gzSize !== undefined) {
        ctx.set("Content-Encoding", "gzip");
        file = `${file}.gz`;
        size = gzSize;
      }
    }
    ctx.status = 200;
    ctx.body = ctx.method === "HEAD" ? "" : createReadStream(file);
    ctx.length = size;
  };
}
