import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { paths } from "@tracker/sdk/schema";
import createClient, { type Client } from "openapi-fetch";
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import { type Config, loadConfig } from "../config.js";
import { Contract } from "../http/contract.js";
import { createLogger } from "../logger.js";
import { type BootstrapInput, bootstrapWorkspace } from "../modules/dev/bootstrap.js";
import { type RunningServer, startHttp } from "../server.js";
import { withDatabase } from "./global-setup.js";

let contract: Contract | undefined;
/** The contract, parsed once per test worker. */
export function testContract(): Contract {
  contract ??= Contract.load();
  return contract;
}

export type ApiClient = Client<paths>;

export interface TestServer {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  databaseUrl: string;
  running: RunningServer;
  /** A workspace, its admin and an account key, made the way `npm run setup` makes them. */
  bootstrap(input?: Partial<BootstrapInput>): ReturnType<typeof bootstrapWorkspace>;
  /** An openapi-fetch client for `token`; every response it receives is checked against the contract. */
  client(token?: string, headers?: Record<string, string>): ApiClient;
  /**
   * fetch that checks every answer against the contract ({@link contractCheckingFetch}), for a client a
   * test builds itself: `createTracker({ baseUrl: srv.url, fetch: srv.fetch })`.
   */
  fetch: (request: Request) => Promise<Response>;
  /**
   * Invites someone into the admin's workspace and accepts the invite, the way a person would.
   * Returns the new member's account key (active in that workspace) and id.
   */
  addMember(
    adminToken: string,
    role?: "admin" | "member" | "guest",
    email?: string,
  ): Promise<{ token: string; userId: string; email: string }>;
  /** Runs SQL directly, for asserting what a refused request left behind. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

const unique = () => randomBytes(4).toString("hex");

/**
 * The test file's server ({@link startTestServer}): started before its first test, closed after its last.
 * Call at the top of the file; use the answer inside tests and hooks.
 */
export function useTestServer(overrides: Partial<Config> = {}): TestServer {
  let srv: TestServer | undefined;
  beforeAll(async () => {
    srv = await startTestServer(overrides);
  });
  afterAll(() => srv?.close());
  return new Proxy({} as TestServer, {
    get(_, key) {
      if (!srv)
        throw new Error("The test server starts before the first test: use it inside tests and hooks.");
      const value = Reflect.get(srv, key, srv);
      return typeof value === "function" ? value.bind(srv) : value;
    },
  });
}

/**
 * Another server instance on `databaseUrl` (a test server's), as a second process would run beside it:
 * its own pools, caches and event hub. The caller closes it.
 */
export function startAnotherInstance(
  databaseUrl: string,
  overrides: Partial<Config> = {},
): Promise<RunningServer> {
  return startHttp(testConfig(overrides), createLogger("silent"), databaseUrl, testContract());
}

/**
 * The data folder of this process's test servers (attachments, the secrets key beside it), made on first
 * use in the system's temporary folder: never the checkout's `.tracker/data`, where files written by tests
 * would keep `npm start` from initialising its embedded database there.
 */
let testDataDir: string | undefined;
function testData(): string {
  testDataDir ??= path.join(mkdtempSync(path.join(os.tmpdir(), "tracker-test-")), "data");
  return testDataDir;
}

/** Rate limiting is off unless a test asks for it: tests fire bursts (e.g. 100 concurrent creates) on one key. */
function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({ ...process.env, PORT: "0" }),
    nodeEnv: "test",
    rateLimitPerMinute: 0,
    dataDir: testData(),
    ...overrides,
  };
}

/** A server on a fresh database copied from the migrated template. One per test file. */
export async function startTestServer(overrides: Partial<Config> = {}): Promise<TestServer> {
  const baseUrl = inject("databaseUrl");
  const database = `t_${process.pid}_${unique()}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${database} template ${inject("templateDatabase")}`);
  await admin.end();
  const databaseUrl = withDatabase(baseUrl, database);

  const running = await startHttp(
    testConfig(overrides),
    createLogger((process.env.TEST_LOG_LEVEL as "error" | undefined) ?? "silent"),
    databaseUrl,
    testContract(),
  );
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const url = running.url;

  return {
    url,
    databaseUrl,
    running,
    bootstrap: (input = {}) => {
      const id = unique();
      return bootstrapWorkspace(running.orm.em.fork(), {
        workspaceName: input.workspaceName ?? `Workspace ${id}`,
        email: input.email ?? `admin-${id}@example.com`,
        name: input.name ?? `Admin ${id}`,
        ...input,
      });
    },
    client: (token, headers = {}) =>
      createClient<paths>({
        baseUrl: `${url}/api/v1`,
        headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
        fetch: contractCheckingFetch,
      }),
    fetch: contractCheckingFetch,
    addMember: async (adminToken, role = "member", email = `member-${unique()}@example.com`) => {
      const admin = createClient<paths>({
        baseUrl: `${url}/api/v1`,
        headers: { Authorization: `Bearer ${adminToken}` },
        fetch: contractCheckingFetch,
      });
      const invite = await admin.POST("/invites", { body: { email, role } });
      if (!invite.data) throw new Error(`invite failed: ${JSON.stringify(invite.error)}`);
      const token = invite.data.invite.url.split("/").pop()!;
      const anonymous = createClient<paths>({ baseUrl: `${url}/api/v1`, fetch: contractCheckingFetch });
      const accepted = await anonymous.POST("/invites/accept", {
        body: { token, name: email.split("@")[0]! },
      });
      if (!accepted.data) throw new Error(`accept failed: ${JSON.stringify(accepted.error)}`);
      return { token: accepted.data.apiKey.token, userId: accepted.data.user.id, email };
    },
    query: async (text, params = []) => (await pool.query(text, params)).rows,
    close: async () => {
      await pool.end();
      await running.close();
    },
  };
}

const compiledPaths = () =>
  testContract().operations.map((op) => ({
    op,
    // Unversioned operations (`/health`) sit outside `/api/v1`.
    re: new RegExp(`^${op.unversioned ? "" : "/api/v1"}${op.path.replace(/\{[^}]+\}/g, "[^/]+")}$`),
  }));
let matchers: ReturnType<typeof compiledPaths> | undefined;

/**
 * fetch that checks each response against the contract: declared status, content type and body schema
 * (closed: no field the schema does not list, `Contract.checkResponse`), the X-Request-Id header, and the
 * X-Service-Workspace header on workspace-scoped successes. A request no operation of the contract takes
 * is itself a failure, not an answer let through. Throws on the first answer that breaks the contract.
 */
export const contractCheckingFetch = contractChecking((request) => fetch(request));

/** {@link contractCheckingFetch} around `send`: what the harness's own tests feed a wrong answer through. */
export function contractChecking(
  send: (request: Request) => Promise<Response>,
): (request: Request) => Promise<Response> {
  return async (input) => {
    const res = await send(input);
    // An event stream is read as it arrives, by the test: only its status and headers are checked.
    const streaming = res.headers.get("content-type")?.startsWith("text/event-stream");
    const problems = responseProblems(input, res, streaming ? "" : await res.clone().text());
    if (problems.length) {
      throw new Error(
        `${input.method} ${new URL(input.url).pathname} → ${res.status} breaks the contract:\n${problems.join("\n")}`,
      );
    }
    return res;
  };
}

/** What is wrong with `res`, the answer to `input`, by the contract; empty when nothing is. */
export function responseProblems(input: Request, res: Response, text: string): string[] {
  matchers ??= compiledPaths();
  const { pathname } = new URL(input.url);
  const method = input.method.toLowerCase();
  const candidates = matchers.filter((m) => m.op.method === method && m.re.test(pathname));
  // Prefer the most specific path (fewest parameters), as the router does.
  const match = candidates.sort((a, b) => a.op.path.split("{").length - b.op.path.split("{").length)[0];
  if (!match) return [`no operation of the contract takes ${input.method} ${pathname}`];
  const problems: string[] = [];
  const type = res.headers.get("content-type");
  let body: unknown = text;
  if (type?.includes("json") && text) {
    try {
      body = JSON.parse(text);
    } catch {
      return [`the ${type} body is not JSON: ${text.slice(0, 200)}`];
    }
  }
  problems.push(...testContract().checkResponse(match.op, res.status, type, body));
  const requestId = res.headers.get("x-request-id");
  if (!requestId) problems.push("missing X-Request-Id header");
  if (type?.includes("problem+json")) {
    // What the contract's `Problem` says in words and no schema can: its fields agree with the answer.
    const problem = body as { requestId?: string; status?: number; type?: string; code?: string };
    if (problem.requestId !== requestId) problems.push("problem body's requestId differs from X-Request-Id");
    if (problem.status !== res.status) problems.push("problem body's status differs from the HTTP status");
    if (problem.type !== `urn:tracker:problem:${problem.code}`)
      problems.push("problem body's type is not urn:tracker:problem:<code>");
  }
  if (match.op.workspaceScoped && res.ok && !res.headers.get("x-service-workspace")) {
    problems.push("missing X-Service-Workspace header");
  }
  if (match.op.operationId === "listWorkspaces" && res.headers.get("x-service-workspace")) {
    problems.push("GET /workspaces must not carry X-Service-Workspace");
  }
  if (problems.length) problems.push(text.slice(0, 2000));
  return problems;
}
