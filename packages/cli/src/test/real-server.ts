import { afterAll, beforeAll } from "vitest";
import { startTestServer, type TestServer } from "../../../server/src/test/harness.js";
import { runCli } from "../cli.js";
import { buffer } from "./fake-api.js";

/** Starts a real server on its own database for this test file; `tracker()` runs the CLI against it, piped. */
export function useRealServer() {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  return {
    get server(): TestServer {
      if (!server) throw new Error("the test server has not started");
      return server;
    },
    async tracker(argv: string[], env: Record<string, string>) {
      const stdout = buffer();
      const stderr = buffer();
      const io = { stdout, stderr, isTTY: false, env: { TRACKER_URL: this.server.url, ...env } };
      const code = await runCli(argv, io);
      return { code, stdout: stdout.text, stderr: stderr.text };
    },
  };
}
