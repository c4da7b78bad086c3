import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Whether `signature` (the `X-Hub-Signature-256` header, `sha256=<hex>`) is the HMAC-SHA256 of the raw body
 * with `secret`, as GitHub signs deliveries. Compared in constant time; a header of any other form is false.
 */
export function verifyGithubSignature(
  secret: string,
  rawBody: Buffer | string,
  signature: string | undefined,
) {
  if (!signature || !/^sha256=[0-9a-fA-F]{64}$/.test(signature)) return false;
  const expected = createHmac("sha256", secret).update(rawBody).digest();
  const given = Buffer.from(signature.slice("sha256=".length), "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
