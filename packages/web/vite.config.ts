import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

/**
 * Writes a `.gz` beside every text asset, which the server sends to clients that accept gzip: the board
 * loads compressed without the server compressing on each request.
 */
function precompress(): Plugin {
  return {
    name: "tracker-precompress",
    apply: "build",
    writeBundle(options, bundle) {
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(js|css|html|svg)$/.test(fileName)) continue;
        const file = path.join(options.dir ?? "dist", fileName);
        writeFileSync(`${file}.gz`, gzipSync(readFileSync(file), { level: 9 }));
      }
    },
  };
}

/**
 * The entry starts the board's requests, then imports the app chunk (React and the pages): the page asks
 * the browser to fetch and compile that chunk from the start, beside the entry, not after it.
 */
function preloadApp(): Plugin {
  return {
    name: "tracker-preload-app",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(_html, context) {
        const app = Object.values(context.bundle ?? {}).find((c) => c.type === "chunk" && c.name === "mount");
        if (app?.type !== "chunk") return [];
        // With the chunks it imports (code it shares with a lazy chunk is split out of it), but the entry
        // and what the page loads for the entry already.
        const entry = Object.values(context.bundle ?? {}).find((c) => c.type === "chunk" && c.isEntry);
        const loaded = new Set(entry?.type === "chunk" ? [entry.fileName, ...entry.imports] : []);
        const files = [app.fileName, ...app.imports].filter((file) => !loaded.has(file));
        return files.map((file) => ({
          tag: "link",
          attrs: { rel: "modulepreload", crossorigin: true, href: `/${file}` },
          injectTo: "head" as const,
        }));
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), preloadApp(), precompress()],
  build: { target: "es2022", outDir: "dist", emptyOutDir: true, sourcemap: false },
  // `npm run dev -w @tracker/web` proxies the API to a server started with `npm start`.
  server: { proxy: { "/api": "http://localhost:3000" } },
});
