#!/usr/bin/env node
/**
 * The bench's "floor": the benched reads served by plain `node:http` and node-postgres, with the least work
 * around their statements, as a child process of the bench (`node build/bench/floor.js`, `DATABASE_URL` and
 * `PORT` in its environment). The bench loads it with the same autocannon settings right after the server's
 * case and prints the server's req/s as a share of this one's (bench/README.md, "The floor").
 *
 * It cannot drift from the server: it calls the server's own handlers (`src/handlers.ts`), which build and
 * run the very statements the server runs (the list compiler, the read and page-data queries, the project
 * and initiative lists) through the same runner (`db/sql.ts`) and write the same JSON. What it leaves out is
 * everything around them:
 * - no Koa, router, body parser, CORS, request id, request log, rate limit or problem mapping;
 * - no MikroORM: no `em.fork()` per request; `sql()` gets a stand-in for the EntityManager that gives it
 *   the connection settings (with the ORM's type parsers: dates and timestamps as text), from which it opens
 *   its node-postgres pools as it does in the server;
 * - the API key is looked up once with the server's `authenticate` and then cached for the process's life,
 *   and so is the workspace it resolves to. The server keeps callers too for these reads, but confirms
 *   them in each read's own statement (`src/http/caller-cache.ts`: the statement selects `auth_epoch`) and
 *   resolves the workspace per request; `TRACKER_FLOOR_AUTH=every` looks the key up on every request, as
 *   the server did before it kept callers;
 * - the query string is not validated against the contract: comma lists are split and integers parsed,
 *   as the contract's coercion would, and anything the handler refuses is a bare 400/404/500;
 * - errors are answered with a status and an empty object, not the contract's problem body.
 */
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { closeGenericPlanPool } from "../src/db/sql.js";
import { allHandlers } from "../src/handlers.js";
import type { Caller, WorkspaceAccess } from "../src/http/auth.js";
import { authenticate } from "../src/http/auth.query.js";
import { Contract, type OperationSpec, WORKSPACE_HEADER } from "../src/http/contract.js";
import { JsonText, type RequestScope } from "../src/http/handler.js";
import { HttpProblem } from "../src/http/problem.js";
import { resolveWorkspace } from "../src/http/workspace.js";

const API = "/api/v1";
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error("floor: DATABASE_URL is not set");

// The ORM's type parsers (`PostgreSqlConnection.getConnectionOptions`): dates and timestamps stay text.
const types = new pg.TypeOverrides();
for (const oid of [1082, 1114, 1184, 1186]) types.setTypeParser(oid, (s: string) => s);
/** What `db/sql.ts` asks of the ORM's connection: its settings, for the pools it opens outside transactions. */
const connection = { getConnectionOptions: (): pg.PoolConfig => ({ connectionString: databaseUrl, types }) };
const em = {
  getConnection: () => connection,
  getTransactionContext: () => undefined,
} as unknown as RequestScope["em"];

// The contract the built server reads (dist/openapi.yaml: `npm run build` copies it there).
const contract = Contract.load(
  path.join(path.dirname(fileURLToPath(import.meta.url)), "../../dist/openapi.yaml"),
);
const handlers = new Map(allHandlers.map((h) => [h.operationId as string, h.handler]));

/** The benched reads: contract path, operation. */
const ROUTES: { pattern: RegExp; operationId: string; param?: string }[] = [
  { pattern: /^\/issues$/, operationId: "listIssues" },
  { pattern: /^\/issues\/([^/]+)$/, operationId: "getIssue", param: "identifier" },
  { pattern: /^\/issues\/([^/]+)\/page-data$/, operationId: "getIssuePageData", param: "identifier" },
  { pattern: /^\/projects$/, operationId: "listProjects" },
  { pattern: /^\/initiatives$/, operationId: "listInitiatives" },
];
const ops = new Map(ROUTES.map((r) => [r.operationId, contract.operation(r.operationId)]));

/** The query as the contract's coercion leaves it for these operations: lists split, integers parsed. */
function queryOf(op: OperationSpec, search: URLSearchParams): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const [name, value] of search) {
    if (op.commaListParams.includes(name))
      query[name] = value
        .split(",")
        .map((x) => x.trim())
        .filter(Boolean);
    else {
      const spec = op.parameters.find((p) => p.in === "query" && p.name === name);
      query[name] = spec?.schema.type === "integer" ? Number(value) : value;
    }
  }
  return query;
}

/**
 * `TRACKER_FLOOR_AUTH=every`: look the key up on every request, a round trip before the read's own
 * statement, to measure what that lookup costs.
 */
const EVERY_CALL = process.env.TRACKER_FLOOR_AUTH === "every";
/** Callers by `Authorization` header, looked up once (see above). */
const callers = new Map<string, Promise<Caller>>();
const workspaces = new Map<string, WorkspaceAccess>();

async function serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", "http://floor");
  if (url.pathname === "/health") {
    res.writeHead(200, { "content-type": "application/json" }).end('{"status":"ok"}');
    return;
  }
  const route = url.pathname.startsWith(API)
    ? ROUTES.find((r) => r.pattern.test(url.pathname.slice(API.length)))
    : undefined;
  if (!route || req.method !== "GET") {
    res.writeHead(404).end("{}");
    return;
  }
  const authorization = req.headers.authorization ?? "";
  let caller = EVERY_CALL ? undefined : callers.get(authorization);
  if (!caller) {
    caller = authenticate(em, authorization);
    callers.set(authorization, caller);
    caller.catch(() => callers.delete(authorization));
  }
  const who = await caller;
  const wsRef = url.searchParams.get("workspace") ?? undefined;
  const wsKey = `${authorization}\n${wsRef ?? ""}`;
  let workspace = workspaces.get(wsKey);
  if (!workspace) {
    workspace = resolveWorkspace(who, undefined, wsRef);
    workspaces.set(wsKey, workspace);
  }
  const op = ops.get(route.operationId)!;
  const match = route.pattern.exec(url.pathname.slice(API.length))!;
  const params = route.param ? { [route.param]: decodeURIComponent(match[1]!) } : {};
  const { workspace: _ws, ...query } = queryOf(op, url.searchParams);
  const scope = { em, caller: who, workspace } as unknown as RequestScope;
  const result = (await handlers.get(route.operationId)!(scope, {
    params,
    query,
    body: undefined,
  } as never)) as {
    status: number;
    body: unknown;
  };
  const text = result.body instanceof JsonText ? result.body.text : JSON.stringify(result.body);
  res.writeHead(result.status, { "content-type": "application/json", [WORKSPACE_HEADER]: workspace.slug });
  res.end(text);
}

const server = http.createServer((req, res) => {
  serve(req, res).catch((err) => {
    const status = err instanceof HttpProblem ? err.status : 500;
    if (status === 500) process.stderr.write(`[floor] ${(err as Error).stack ?? err}\n`);
    if (!res.headersSent) res.writeHead(status, { "content-type": "application/json" });
    res.end("{}");
  });
});
// As the server's: keep-alive connections from the load generator.
server.keepAliveTimeout = 5000;
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1");
process.once("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
  void closeGenericPlanPool(em).finally(() => process.exit(0));
});
