import { webcrypto } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createTracker } from "./index.js";
import { fakeFetch, json, problem } from "./test/fake-fetch.js";
import { randomUUID, type UuidSource } from "./uuid.js";

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Web Crypto as a browser page over plain http at a LAN address has it: no `randomUUID`. */
function insecureContextCrypto(): UuidSource & { draws: number } {
  const source = {
    draws: 0,
    getRandomValues(array: Uint8Array): Uint8Array {
      source.draws++;
      return webcrypto.getRandomValues(array);
    },
  };
  return source;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("idempotency keys without crypto.randomUUID", () => {
  it("makes version-4 UUIDs from getRandomValues, all different", () => {
    const source = insecureContextCrypto();
    const keys = Array.from({ length: 200 }, () => randomUUID(source));
    for (const key of keys) expect(key).toMatch(V4);
    expect(new Set(keys).size).toBe(keys.length);
    expect(source.draws).toBe(keys.length);
  });

  it("uses crypto.randomUUID where the environment has it", () => {
    const source = { ...insecureContextCrypto(), randomUUID: () => "11111111-1111-4111-8111-111111111111" };
    expect(randomUUID(source)).toBe("11111111-1111-4111-8111-111111111111");
    expect(source.draws).toBe(0);
  });

  it("a write from such an environment is keyed, with the same key on its retry", async () => {
    vi.stubGlobal("crypto", insecureContextCrypto());
    expect(globalThis.crypto.randomUUID).toBeUndefined();
    const team = { id: "t1", key: "ENG", name: "Engineering" };
    const fake = fakeFetch(
      problem(503, "service_unavailable", {}, { "retry-after": "0" }),
      json({ team }, 201),
    );
    const tracker = createTracker({
      baseUrl: "http://192.168.1.20:3000",
      apiKey: "trk_test",
      fetch: fake.fetch,
    });

    await expect(tracker.teams.create({ name: "Engineering", key: "ENG" })).resolves.toEqual(team);

    const keys = fake.requests.map((r) => r.headers.get("idempotency-key"));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(V4);
    expect(keys[1]).toBe(keys[0]);
  });
});
