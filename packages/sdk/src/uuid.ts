/** The part of Web Crypto a version-4 UUID needs; `randomUUID` is missing outside secure contexts. */
export interface UuidSource {
  randomUUID?: (() => string) | undefined;
  getRandomValues(array: Uint8Array): Uint8Array;
}

/**
 * A random version-4 UUID, the SDK's `Idempotency-Key` (the contract's "Idempotent writes"). Browsers
 * offer `crypto.randomUUID` only in secure contexts (https, localhost): a page served over plain http at
 * a LAN address has `getRandomValues` alone, from which the same kind of UUID is made (RFC 9562 §5.4).
 *
 * @example
 * const key = randomUUID(); // "0b8c1c3e-5f7d-4f0e-9a51-2d7c0f3e6a41"
 */
export function randomUUID(source: UuidSource = globalThis.crypto): string {
  if (typeof source.randomUUID === "function") return source.randomUUID();
  const bytes = source.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // variant 10xx
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
