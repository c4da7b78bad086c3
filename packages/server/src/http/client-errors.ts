import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import type { Duplex } from "node:stream";
import { type ProblemCode, problemType } from "./problem.js";

/**
 * Requests Node refuses before the application sees them (headers over its 16 KiB limit, a malformed
 * request line) are answered with a problem body like every other error, instead of Node's empty one.
 */
export function answerClientErrors(server: Server): void {
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, code, title, detail]: [400 | 408 | 431, ProblemCode, string, string] =
      err.code === "HPE_HEADER_OVERFLOW"
        ? [
            431,
            "headers_too_large",
            "Request headers too large",
            "The request line and headers are over 16 KiB. Send long filters in fewer or shorter parameters.",
          ]
        : err.code === "HPE_REQUEST_TIMEOUT" || err.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? [408, "invalid_request", "Request timeout", "The request was not received in time."]
          : [400, "invalid_request", "Invalid request", "The request is not valid HTTP."];
    const requestId = randomUUID();
    const body = JSON.stringify({
      type: problemType(code),
      title,
      status,
      detail,
      code,
      requestId,
    });
    const reason = { 400: "Bad Request", 408: "Request Timeout", 431: "Request Header Fields Too Large" }[
      status
    ];
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/problem+json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
