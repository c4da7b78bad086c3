import net from "node:net";

/**
 * A TCP port free on this machine now, for a process that takes its port as an option (`tracker server
 * start --port`). The server's own tests use PORT=0 and read the port from its log instead.
 */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
