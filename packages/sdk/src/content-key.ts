/**
 * A stable key for a piece of text, for an `Idempotency-Key` that must come out the same when a script
 * runs again (an import re-sent after a crash). Two 53-bit string hashes (cyrb53 with two seeds), so it
 * needs no Web Crypto (missing outside secure contexts) and stays synchronous. Not for secrets: a
 * collision would at worst make the server refuse the second write (`idempotency_key_reused`).
 */
export function contentKey(text: string): string {
  return (
    hash53(text, 0x9e3779b9).toString(36).padStart(11, "0") +
    hash53(text, 0x85ebca6b).toString(36).padStart(11, "0")
  );
}

function hash53(text: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
