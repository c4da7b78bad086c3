import http from "node:http";
import { crc32, deflateSync } from "node:zlib";

/** A real PNG of `width` × `height` pixels, one colour (for sniffing, sizes and `<img>`). */
export function png(width: number, height: number, rgb: [number, number, number] = [200, 30, 30]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, "ascii");
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(pixels)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/**
 * Starts an upload that says `declared` bytes, sends `sent` of them, then cuts the connection, the way a
 * client that crashes or loses its network does. Resolves once the socket is closed.
 */
export async function abortedUpload(
  url: string,
  token: string,
  declared: number,
  sent: number,
  whileOpen: () => Promise<void> | void = () => undefined,
): Promise<void> {
  const req = http.request(url, {
    agent: false,
    method: "POST",
    headers: {
      Authorization: `Bearer ${token}`,
      "Content-Type": "application/octet-stream",
      "Content-Length": String(declared),
    },
  });
  req.on("error", () => undefined);
  await new Promise<void>((resolve) => req.write(Buffer.alloc(sent, 7), () => resolve()));
  await new Promise((r) => setTimeout(r, 300));
  await whileOpen();
  await new Promise<void>((resolve) => {
    req.socket?.once("close", () => resolve());
    req.destroy();
    if (!req.socket) resolve();
  });
}

/**
 * Streams `total` bytes without `Content-Length` (chunked), as a pipe of unknown length does, and
 * resolves with the status the server answers (the server may answer and close before all is sent).
 */
export function chunkedUpload(url: string, token: string, total: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      agent: false,
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/octet-stream" },
    });
    let answered = false;
    req.on("response", (res) => {
      answered = true;
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", (err) => {
      if (!answered) reject(err);
    });
    let left = total;
    const pump = () => {
      while (left > 0 && !answered) {
        const n = Math.min(16 * 1024, left);
        left -= n;
        if (!req.write(Buffer.alloc(n, 1))) return void req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}
