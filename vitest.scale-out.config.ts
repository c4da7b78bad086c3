import { defineConfig } from "vitest/config";

/**
 * The scale-out check (`npm run check:scale-out`): real PostgreSQL, two server instances and HAProxy, in one
 * file of its own; not part of `npm test`, which needs nothing but Node. It starts everything it uses.
 */
export default defineConfig({
  test: {
    include: ["packages/server/src/operations/scale-out.check.ts"],
    testTimeout: 300_000,
    hookTimeout: 60_000,
    env: { LOG_LEVEL: "silent", NODE_ENV: "test" },
  },
});
