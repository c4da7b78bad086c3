import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["packages/*/src/**/*.test.ts", "examples/**/*.test.ts"],
    globalSetup: ["packages/server/src/test/global-setup.ts", "packages/web/src/test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: two workers keep the database and the test processes from starving each other.
    maxWorkers: 2,
    env: { LOG_LEVEL: "silent", NODE_ENV: "test" },
  },
});
