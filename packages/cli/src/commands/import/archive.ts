import { createReadStream, createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import * as tar from "tar-stream";

/**
 * The workspace archive `tracker export` writes and `tracker import tracker` reads: a tar file (gzipped when
 * its name ends in .gz or .tgz) of `manifest.json`, one JSON Lines file per kind of object, and the
 * attachments' files under `files/`.
 */

export const ARCHIVE_FORMAT = "tracker-export";
export const ARCHIVE_VERSION = 1;

export interface Manifest {
  format: typeof ARCHIVE_FORMAT;
  version: number;
  exportedAt: string;
  server: string;
  workspace: { id: string; name: string; slug: string };
  /** Each JSON Lines file and how many objects it holds. */
  counts: Record<string, number>;
}

const gzipped = (file: string) => /\.(t?gz)$/i.test(file);

/** Writes entries as they come, in order; `finish` closes the archive and waits for the file. */
export class ArchiveWriter {
  private readonly pack = tar.pack();
  private readonly done: Promise<void>;

  constructor(file: string) {
    const out = createWriteStream(file);
    this.done = gzipped(file) ? pipeline(this.pack, createGzip(), out) : pipeline(this.pack, out);
  }

  async add(name: string, content: string | Uint8Array): Promise<void> {
    const buffer = typeof content === "string" ? Buffer.from(content, "utf8") : Buffer.from(content);
    await new Promise<void>((resolve, reject) =>
      this.pack.entry({ name, size: buffer.length, mtime: new Date() }, buffer, (err) =>
        err ? reject(err) : resolve(),
      ),
    );
  }

  async lines(name: string, objects: unknown[]): Promise<void> {
    await this.add(name, objects.map((o) => `${JSON.stringify(o)}\n`).join(""));
  }

  async finish(): Promise<void> {
    this.pack.finalize();
    await this.done;
  }
}

/** Every entry of an archive, by name (the archives are a workspace's data: read whole into memory). */
export async function readArchive(file: string): Promise<Map<string, Buffer>> {
  const entries = new Map<string, Buffer>();
  const extract = tar.extract();
  extract.on("entry", (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on("data", (c: unknown) => chunks.push(c as Buffer));
    stream.on("end", () => {
      if (header.type === "file") entries.set(header.name, Buffer.concat(chunks));
      next();
    });
    stream.resume();
  });
  const input = createReadStream(file);
  if (gzipped(file)) await pipeline(input, createGunzip(), extract);
  else await pipeline(input, extract);
  return entries;
}

/** The objects of a JSON Lines entry; none when the archive lacks it. */
export function jsonLines<T>(entries: Map<string, Buffer>, name: string): T[] {
  const text = entries.get(name)?.toString("utf8") ?? "";
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as T);
}

/** A web stream's bytes, whole. */
export async function bytesOf(body: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of Readable.fromWeb(body as never)) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}
