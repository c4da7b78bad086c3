// A throwaway HTTP server on 127.0.0.1 whose handler a test writes, for what a real Tracker server does
// not do on demand: accept a connection and never answer, stall mid-answer, go silent on a stream.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface LocalServer {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  /** Every request received, in order. */
  requests: IncomingMessage[];
  /** Destroys open connections, then stops listening. */
  close(): Promise<void>;
}

export async function localServer(
  handler: (req: IncomingMessage, res: ServerResponse, index: number) => void,
): Promise<LocalServer> {
  const requests: IncomingMessage[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    requests.push(req);
    handler(req, res, requests.length - 1);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A handler that accepts the request and never answers. */
export const neverAnswer = (): void => {};

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
