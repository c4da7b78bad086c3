import { handle, inWorkspace } from "../http/handler.js";
import { HttpProblem } from "../http/problem.js";
import { EventHub } from "./event-hub.js";

export const eventHandlers = [
  /**
   * The response is the event stream itself, written by the hub to the raw response (`ctx.respond` is
   * off); authentication and workspace resolution ran before, like for every operation. The handler
   * returns once the stream is open, so the request's resources are not held for the stream's lifetime;
   * its log line says how long opening took.
   */
  handle("streamEvents", async (s) => {
    const scope = inWorkspace(s);
    const hub = EventHub.of(scope.koa.app);
    if (!hub)
      throw new HttpProblem(503, "service_unavailable", "Unavailable", "The event stream is not running.");
    await hub.serve(scope);
    return { status: 200, body: undefined as never };
  }),
];
