import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, open, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { type Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import type { AttachmentSettings, Config } from "../../config.js";

/** An object of the store, as the orphan sweep sees it. */
export interface StoredObject {
  key: string;
  modifiedAt: Date;
}

/**
 * Where attachment bytes live. `put` consumes the stream whole and resolves once the object is durable
 * (what the 201 promises); it rejects, leaving nothing behind, when the stream fails (an aborted upload,
 * the size limit). `get` streams an object; `remove` takes a key of `put` or of `list` and is idempotent.
 */
export interface AttachmentStore {
  readonly kind: "disk" | "s3";
  put(key: string, body: Readable): Promise<void>;
  get(key: string): Promise<Readable>;
  remove(key: string): Promise<void>;
  list(): AsyncIterable<StoredObject>;
}

/**
 * Files under `<data folder>/attachments/<first two characters of the key>/<key>`. A write goes to a
 * temporary file in `attachments/.incoming`, is fsynced, then renamed into place, so a crash leaves a
 * whole file or none (the temporary ones are swept as orphans).
 */
export class DiskStore implements AttachmentStore {
  readonly kind = "disk";
  private readonly incoming: string;
  constructor(private readonly root: string) {
    this.incoming = path.join(root, ".incoming");
  }

  private file(key: string): string {
    if (!/^[a-z0-9-]+$/.test(key)) throw new Error(`unsafe attachment key "${key}"`);
    return path.join(this.root, key.slice(0, 2), key);
  }

  async put(key: string, body: Readable): Promise<void> {
    const target = this.file(key);
    await mkdir(this.incoming, { recursive: true });
    await mkdir(path.dirname(target), { recursive: true });
    const temp = path.join(this.incoming, `${key}.part`);
    try {
      const out = createWriteStream(temp, { flags: "wx" });
      await pipeline(body, out);
      const fh = await open(temp, "r+");
      try {
        await fh.sync();
      } finally {
        await fh.close();
      }
      await rename(temp, target);
      // The rename is durable once its folder is.
      const dir = await open(path.dirname(target), "r");
      try {
        await dir.sync();
      } finally {
        await dir.close();
      }
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<Readable> {
    const file = this.file(key);
    await stat(file);
    return createReadStream(file);
  }

  async remove(key: string): Promise<void> {
    // A temporary file the sweep listed is removed by its own path.
    if (key.startsWith(".incoming/")) await rm(path.join(this.incoming, path.basename(key)), { force: true });
    else await rm(this.file(key), { force: true });
  }

  async *list(): AsyncIterable<StoredObject> {
    let dirs: string[];
    try {
      dirs = await readdir(this.root);
    } catch {
      return;
    }
    for (const dir of dirs) {
      const folder = path.join(this.root, dir);
      for (const name of await readdir(folder).catch(() => [] as string[])) {
        const s = await stat(path.join(folder, name)).catch(() => undefined);
        if (!s?.isFile()) continue;
        // A temporary file of a write in flight or cut short: its key is the name before `.part`.
        yield { key: dir === ".incoming" ? `.incoming/${name}` : name, modifiedAt: s.mtime };
      }
    }
  }
}

export interface S3Settings {
  bucket: string;
  endpoint: string | undefined;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
}

/**
 * Objects in an S3-compatible bucket, under `attachments/<key>`, for several instances serving one
 * database. Uploads go through `@aws-sdk/lib-storage` (multipart in 5 MiB parts, so nothing larger is
 * held in memory); a failed upload is aborted, which removes its parts.
 */
export class S3Store implements AttachmentStore {
  readonly kind = "s3";
  readonly client: S3Client;
  constructor(private readonly settings: S3Settings) {
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials:
        settings.accessKeyId && settings.secretAccessKey
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
          : undefined,
    });
  }

  private objectKey(key: string): string {
    return `attachments/${key}`;
  }

  async put(key: string, body: Readable): Promise<void> {
    // The SDK reads the stream as it is consumed; a pass-through keeps a failure of the source (an
    // aborted request) an error of the upload rather than a stream that merely ends early.
    const source = body.pipe(new Transform({ transform: (chunk, _enc, cb) => cb(null, chunk) }));
    let failure: Error | undefined;
    body.once("error", (err) => {
      failure = err;
      source.destroy(err);
    });
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.settings.bucket, Key: this.objectKey(key), Body: source },
      queueSize: 2,
      partSize: 5 * 1024 * 1024,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (err) {
      await upload.abort().catch(() => undefined);
      throw failure ?? err;
    }
    if (failure) {
      await this.remove(key);
      throw failure;
    }
  }

  async get(key: string): Promise<Readable> {
    const out = await this.client.send(
      new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }),
    );
    return out.Body as Readable;
  }

  async remove(key: string): Promise<void> {
    await this.client.send(
      new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }),
    );
  }

  async *list(): AsyncIterable<StoredObject> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.settings.bucket,
          Prefix: "attachments/",
          ContinuationToken: token,
        }),
      );
      for (const o of page.Contents ?? [])
        if (o.Key)
          yield { key: o.Key.slice("attachments/".length), modifiedAt: o.LastModified ?? new Date(0) };
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
}

const stores = new WeakMap<AttachmentSettings, AttachmentStore>();

/** The store the settings name (S3 when a bucket is set, else the data folder), made once per settings. */
export function attachmentStore(config: Config): AttachmentStore {
  let store = stores.get(config.attachments);
  if (!store) {
    const { s3 } = config.attachments;
    store = s3 ? new S3Store(s3) : new DiskStore(path.join(config.dataDir, "attachments"));
    stores.set(config.attachments, store);
  }
  return store;
}
