/**
 * Whether an error says the database cannot be reached right now, as opposed to a fault in the request or
 * in the server: the connection was refused or dropped, PostgreSQL is starting, recovering or shutting down,
 * or no pooled connection could be had. Such a request is answered 503 with `Retry-After`, never 500
 * (`toProblem` in http/request-log.ts), and the next one reconnects: the pools drop dead connections on their own.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  // Drivers and the ORM wrap the socket's error: walk the causes.
  for (let e: unknown = err, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const { code, message, name, syscall } = e as {
      code?: unknown;
      message?: unknown;
      name?: unknown;
      syscall?: unknown;
    };
    if (typeof code === "string") {
      if (UNAVAILABLE_SQLSTATES.has(code) || code.startsWith("08")) return true;
      // ENOENT: the Unix socket file is gone while the embedded cluster restarts.
      if (SOCKET_ERRORS.has(code) && (syscall === undefined || SOCKET_CALLS.has(String(syscall))))
        return true;
    }
    if (name === "KnexTimeoutError") return true;
    if (typeof message === "string" && UNAVAILABLE_MESSAGES.some((re) => re.test(message))) return true;
    e = (e as { cause?: unknown }).cause ?? (e as { previous?: unknown }).previous;
  }
  return false;
}

/**
 * SQLSTATEs of a server going away or not yet there: admin_shutdown (57P01), crash_shutdown (57P02),
 * cannot_connect_now (57P03: starting up, in recovery), database_dropped (57P04), too_many_connections
 * (53300); class 08 (connection exceptions) is matched by prefix.
 */
const UNAVAILABLE_SQLSTATES = new Set(["57P01", "57P02", "57P03", "57P04", "53300"]);
const SOCKET_ERRORS = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOENT",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "ENOTFOUND",
]);
const SOCKET_CALLS = new Set(["connect", "read", "write", "getaddrinfo"]);
/** node-postgres and knex say these without a code (knex prefixes the statement: `COMMIT; - …`). */
const UNAVAILABLE_MESSAGES = [
  /Connection terminated/,
  /Client has encountered a connection error and is not queryable/,
  /Client was closed and is not queryable/,
  /Knex: Timeout acquiring a connection/,
  /timeout exceeded when trying to connect/,
];
