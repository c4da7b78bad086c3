/**
 * The backup file: one gzip stream (so a truncated or damaged file fails its CRC and length check) of
 *
 *   TRACKER-BACKUP 1\n
 *   <manifest as one JSON line>\n
 *   per table, in the manifest's order:
 *     T <table>\n
 *     D <byte length>\n<that many bytes of COPY text>   (repeated)
 *     E <rows> <bytes>\n
 *   END <trailer as one JSON line>\n
 *
 * A reader checks every frame, each table's row and byte counts, the table order and the end marker, so a
 * file that is not whole is refused before anything is written anywhere (`verifyBackup`).
 */
import { once } from "node:events";
import { closeSync, createReadStream, openSync, readSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import { createGunzip } from "node:zlib";

export const MAGIC = "TRACKER-BACKUP 1";

export interface TableManifest {
  name: string;
  /** The columns written, in order (generated columns are left out: the database computes them again). */
  columns: string[];
}

export interface Manifest {
  format: 1;
  createdAt: string;
  /** `server_version` of the source database. */
  postgres: string;
  /** The migrations applied to the source, in order: a restore brings the schema to exactly these first. */
  migrations: string[];
  tables: TableManifest[];
}

export interface Trailer {
  /** Each sequence's value at the backup, read after the data (so at least every id in it). */
  sequences: Record<string, number>;
  rows: Record<string, number>;
}

/** Why a file cannot be restored; said before anything is touched. */
export class BadBackup extends Error {}

const FRAME_BYTES = 256 * 1024;
const NEWLINE = 0x0a;

/** Writes the frames to `out` (the gzip stream), honouring its backpressure. */
export class BackupWriter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly out: Writable) {}

  async header(manifest: Manifest): Promise<void> {
    await this.write(`${MAGIC}\n${JSON.stringify(manifest)}\n`);
  }

  /** Copies one table's COPY text from `source`; resolves with its row and byte counts. */
  async table(name: string, source: Readable): Promise<{ rows: number; bytes: number }> {
    await this.write(`T ${name}\n`);
    let rows = 0;
    let bytes = 0;
    for await (const chunk of source as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      for (let i = chunk.indexOf(NEWLINE); i >= 0; i = chunk.indexOf(NEWLINE, i + 1)) rows++;
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
      if (this.pendingBytes >= FRAME_BYTES) await this.flushFrame();
    }
    await this.flushFrame();
    await this.write(`E ${rows} ${bytes}\n`);
    return { rows, bytes };
  }

  async end(trailer: Trailer): Promise<void> {
    await this.write(`END ${JSON.stringify(trailer)}\n`);
  }

  private async flushFrame(): Promise<void> {
    if (this.pendingBytes === 0) return;
    const data = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    await this.write(`D ${data.length}\n`);
    await this.write(data);
  }

  private async write(data: string | Buffer): Promise<void> {
    if (!this.out.write(data)) await once(this.out, "drain");
  }
}

/** An error of the caller's `onPart`, passed through `readBackup` as it is. */
class PartFailed extends Error {
  constructor(readonly original: unknown) {
    super("onPart failed");
  }
}

export type BackupPart =
  | { kind: "table"; name: string }
  | { kind: "data"; chunk: Buffer }
  | { kind: "tableEnd"; name: string; rows: number; bytes: number };

/**
 * Reads a backup file: its manifest, then each table's data, then the trailer. Throws `BadBackup` for
 * anything that is not a whole backup in this format.
 */
export async function readBackup(
  file: string,
  handlePart: (part: BackupPart) => Promise<void> | void = () => {},
): Promise<{ manifest: Manifest; trailer: Trailer }> {
  if (!isGzip(file)) throw new BadBackup("it is not a Tracker backup (not a compressed backup file)");
  const onPart = async (part: BackupPart) => {
    try {
      await handlePart(part);
    } catch (err) {
      throw new PartFailed(err);
    }
  };
  const input = createReadStream(file);
  const gunzip = createGunzip();
  input.on("error", (err) => gunzip.destroy(err));
  input.pipe(gunzip);
  const reader = new FrameReader(gunzip[Symbol.asyncIterator]() as AsyncIterator<Buffer>);
  try {
    const magic = await reader.line(64).catch(() => "");
    if (magic !== MAGIC) throw new BadBackup("it is not a Tracker backup (no TRACKER-BACKUP header)");
    const manifest = parseJson<Manifest>(await reader.line(16 * 1024 * 1024), "manifest");
    if (manifest.format !== 1 || !Array.isArray(manifest.tables) || !Array.isArray(manifest.migrations))
      throw new BadBackup("its manifest is not one this version reads");
    const rows: Record<string, number> = {};
    for (const table of manifest.tables) {
      const head = await reader.line(256);
      if (head !== `T ${table.name}`) throw new BadBackup(`expected table ${table.name}, found "${head}"`);
      await onPart({ kind: "table", name: table.name });
      let counted = 0;
      let bytes = 0;
      for (;;) {
        const line = await reader.line(256);
        const data = /^D (\d{1,10})$/.exec(line);
        if (data) {
          const chunk = await reader.bytes(Number(data[1]));
          bytes += chunk.length;
          for (let i = chunk.indexOf(NEWLINE); i >= 0; i = chunk.indexOf(NEWLINE, i + 1)) counted++;
          await onPart({ kind: "data", chunk });
          continue;
        }
        const end = /^E (\d+) (\d+)$/.exec(line);
        if (!end) throw new BadBackup(`table ${table.name}: unexpected "${line.slice(0, 40)}"`);
        if (Number(end[1]) !== counted || Number(end[2]) !== bytes)
          throw new BadBackup(
            `table ${table.name}: ${counted} rows and ${bytes} bytes, ${end[1]} and ${end[2]} expected`,
          );
        rows[table.name] = counted;
        await onPart({ kind: "tableEnd", name: table.name, rows: counted, bytes });
        break;
      }
    }
    const endLine = await reader.line(1024 * 1024);
    if (!endLine.startsWith("END ")) throw new BadBackup("the end marker is missing");
    const trailer = parseJson<Trailer>(endLine.slice(4), "trailer");
    for (const [name, n] of Object.entries(trailer.rows ?? {}))
      if (rows[name] !== n) throw new BadBackup(`table ${name}: the trailer counts ${n} rows`);
    if (!(await reader.atEnd())) throw new BadBackup("there is data after its end marker");
    return { manifest, trailer };
  } catch (err) {
    if (err instanceof PartFailed) throw err.original;
    if (err instanceof BadBackup) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "EACCES" || code === "EISDIR") throw err;
    if (code === "Z_DATA_ERROR" || code === "Z_BUF_ERROR" || /unexpected end of file/.test(String(err)))
      throw new BadBackup("it is damaged or truncated (its compressed data does not check out)");
    throw new BadBackup(`it cannot be read: ${(err as Error).message}`);
  } finally {
    input.destroy();
    gunzip.destroy();
  }
}

/** Whether the file starts as a gzip stream does (opening it also reports a missing or unreadable file). */
function isGzip(file: string): boolean {
  const fd = openSync(file, "r");
  try {
    const head = Buffer.alloc(2);
    return readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    closeSync(fd);
  }
}

function parseJson<T>(text: string, what: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new BadBackup(`its ${what} is not valid`);
  }
}

/** Lines and counted byte runs over a stream of buffers. */
class FrameReader {
  private buffer: Buffer = Buffer.alloc(0);
  private done = false;

  constructor(private readonly source: AsyncIterator<Buffer>) {}

  private async fill(): Promise<boolean> {
    if (this.done) return false;
    const next = await this.source.next();
    if (next.done) {
      this.done = true;
      return false;
    }
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, next.value]) : next.value;
    return true;
  }

  async line(max: number): Promise<string> {
    for (;;) {
      const nl = this.buffer.indexOf(NEWLINE);
      if (nl >= 0) {
        const text = this.buffer.subarray(0, nl).toString("utf8");
        this.buffer = this.buffer.subarray(nl + 1);
        return text;
      }
      if (this.buffer.length > max) throw new BadBackup("a frame header is too long");
      if (!(await this.fill())) throw new BadBackup("it ends in the middle (truncated)");
    }
  }

  async bytes(n: number): Promise<Buffer> {
    while (this.buffer.length < n) {
      if (!(await this.fill())) throw new BadBackup("it ends in the middle of a table (truncated)");
    }
    const out = this.buffer.subarray(0, n);
    this.buffer = this.buffer.subarray(n);
    return out;
  }

  async atEnd(): Promise<boolean> {
    if (this.buffer.length > 0) return false;
    return !(await this.fill()) && this.buffer.length === 0;
  }
}
