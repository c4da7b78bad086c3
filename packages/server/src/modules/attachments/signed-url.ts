import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Config } from "../../config.js";
import { API_PREFIX } from "../../http/routes.js";

/**
 * Download URLs that carry their own right to read, for `<img src>` and links, which send no
 * `Authorization`: `…/attachments/{id}/content?expires=…&signature=…`, an HMAC-SHA256 of the id and the
 * expiry under the server's URL key. No API key ever appears in a URL. The expiry is rounded up to the
 * next quarter hour and lasts at least an hour, so the same file reads with the same URL for a while
 * (the browser's cache keeps it) and a URL that leaked stops working soon.
 */
const LIFETIME_S = 60 * 60;
const ROUND_S = 15 * 60;

const secrets = new WeakMap<Config, Buffer>();

function secretOf(config: Config): Buffer {
  let secret = secrets.get(config);
  if (secret) return secret;
  if (config.attachments.urlSecret) secret = Buffer.from(config.attachments.urlSecret, "utf8");
  else {
    const file = path.join(config.dataDir, "url-secret");
    if (!existsSync(file)) {
      mkdirSync(config.dataDir, { recursive: true });
      // `wx`: of two instances starting at once on one folder, the second reads the first one's key.
      try {
        writeFileSync(file, randomBytes(32).toString("hex"), { flag: "wx", mode: 0o600 });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      }
    }
    secret = Buffer.from(readFileSync(file, "utf8").trim(), "utf8");
  }
  secrets.set(config, secret);
  return secret;
}

function signatureOf(config: Config, id: string, expires: number): string {
  return createHmac("sha256", secretOf(config)).update(`${id}.${expires}`).digest("base64url");
}

/** The download URL of an attachment, a path on this server. */
export function signedUrl(config: Config, id: string, now = Date.now()): string {
  const expires = Math.ceil((now / 1000 + LIFETIME_S) / ROUND_S) * ROUND_S;
  return `${API_PREFIX}/attachments/${id}/content?expires=${expires}&signature=${signatureOf(config, id, expires)}`;
}

/** Whether a URL's signature is this server's for the id, and not yet expired. */
export function validSignature(config: Config, id: string, expires: number, signature: string): boolean {
  if (!Number.isInteger(expires) || expires * 1000 < Date.now()) return false;
  const expected = Buffer.from(signatureOf(config, id, expires));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
