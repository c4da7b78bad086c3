import type { Middleware } from "koa";
import type { DatabaseState } from "../db/embedded-postgres.js";
import { ServiceUnavailable } from "./problem.js";

/**
 * The instance's state beyond its database connection: whether it is draining (SIGTERM: in-flight requests
 * finish, new ones get 503), and the embedded database's supervisor state when there is one.
 */
export interface Lifecycle {
  draining: boolean;
  /** Requests being answered now (an event stream counts until it is open). */
  inFlight: number;
  embeddedDatabase?: () => DatabaseState;
}

/**
 * Draining (SIGTERM): what is running finishes, a new request is turned away with 503 and its connection
 * closed, so a client or balancer resends it to another instance (the contract's "Availability"). `/health`
 * says `draining` itself. Counts the requests in flight for the shutdown to wait on.
 */
export function drain(lifecycle: Lifecycle): Middleware {
  return async (ctx, next) => {
    if (lifecycle.draining && ctx.path !== "/health") {
      ctx.set("Connection", "close");
      throw new ServiceUnavailable("This server is shutting down; retry, and another instance will answer.");
    }
    lifecycle.inFlight++;
    try {
      await next();
    } finally {
      lifecycle.inFlight--;
    }
  };
}
