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

export default defineConfig({
  plugins: [react(), precompress()],
  build: { target: "es2022", outDir: "dist", emptyOutDir: true, sourcemap: false },
  // `npm run dev -w @tracker/web` proxies the API to a server started with `npm start`.
  server: { proxy: { "/api": "http://localhost:3000" } },
});
