import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Integration secrets at rest: the code host's webhook secret and each outbound endpoint's signing secret.
 * Both sign or check an HMAC, which needs the secret itself, so they cannot be hashed like API keys: they
 * are sealed with AES-256-GCM under the server's secrets key, and a database dump alone reveals none of them.
 *
 * The key is `TRACKER_SECRETS_KEY` (32 bytes as 64 hex digits or base64). Without it the server makes one
 * on first use and keeps it in `secrets.key` beside the data folder (`TRACKER_DATA_DIR`'s parent, mode
 * 0600). Instances sharing one database must share the key, and a restored install needs the same key to
 * read the secrets it restores (README, "Integrations").
 */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  static fromKey(key: Buffer): SecretBox {
    if (key.length !== 32) throw new Error("the secrets key must be 32 bytes");
    return new SecretBox(key);
  }

  /** `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return ["v1", iv, cipher.getAuthTag(), data]
      .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
      .join(".");
  }

  /** The plain secret, or undefined when it was sealed under another key (or is not a sealed value). */
  open(sealed: string): string | undefined {
    const [version, iv, tag, data] = sealed.split(".");
    if (version !== "v1" || !iv || !tag || data === undefined) return undefined;
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString(
        "utf8",
      );
    } catch {
      return undefined;
    }
  }
}

function parseKey(value: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, "hex") : Buffer.from(value, "base64");
  if (key.length !== 32)
    throw new Error(
      "TRACKER_SECRETS_KEY must be 32 bytes: 64 hex digits, or base64 (openssl rand -base64 32)",
    );
  return key;
}

const boxes = new Map<string, SecretBox>();

/** The server's secret box: `TRACKER_SECRETS_KEY`, else the key file beside `dataDir` (made on first use). */
export function secretBox(dataDir: string, env: NodeJS.ProcessEnv = process.env): SecretBox {
  const fromEnv = env.TRACKER_SECRETS_KEY;
  const id = fromEnv ? `env:${fromEnv}` : `file:${dataDir}`;
  let box = boxes.get(id);
  if (!box) {
    box = SecretBox.fromKey(fromEnv ? parseKey(fromEnv) : keyFile(secretsKeyFile(dataDir)));
    boxes.set(id, box);
  }
  return box;
}

/** Where the key lives without `TRACKER_SECRETS_KEY`: `secrets.key` in the data folder's parent. */
export function secretsKeyFile(dataDir: string): string {
  return path.join(path.dirname(path.resolve(dataDir)), "secrets.key");
}

function keyFile(file: string): Buffer {
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    try {
      // `wx`: of two instances making it at once, one writes and both read that one.
      writeFileSync(file, `${randomBytes(32).toString("hex")}\n`, { flag: "wx", mode: 0o600 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    chmodSync(file, 0o600);
  }
  return parseKey(readFileSync(file, "utf8").trim());
}
