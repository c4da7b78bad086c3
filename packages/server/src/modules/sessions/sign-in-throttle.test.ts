import { describe, expect, it } from "vitest";
import { useTestServer } from "../../test/harness.js";
import { ACCOUNT_LIMIT, ADDRESS_LIMIT } from "./sign-in-throttle.query.js";

/**
 * Guessing passwords is slowed per account and per address, and the owner is never locked out for good.
 * Each request says its address as a balancer would (`X-Forwarded-For`), from the loopback, trusted here.
 */
const srv = useTestServer({ trustedProxies: ["loopback"] });
const PASSWORD = "the right password 42";

async function person(): Promise<string> {
  const { apiKey } = await srv.bootstrap();
  const email = `p-${Math.random().toString(36).slice(2)}@example.com`;
  const invite = await srv.client(apiKey.token).POST("/invites", { body: { email } });
  const token = invite.data!.invite.url.split("/").pop()!;
  await srv.client().POST("/invites/accept", { body: { token, name: "P", password: PASSWORD } });
  return email;
}

async function signIn(email: string, password: string, address: string) {
  const res = await srv.fetch(
    new Request(`${srv.url}/api/v1/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": address },
      body: JSON.stringify({ email, password }),
    }),
  );
  const body = (await res.json()) as { code?: string };
  return { status: res.status, code: body.code, retryAfter: res.headers.get("retry-after") };
}

/** Time passing for the scores, as the decay reads it: every failure counted `seconds` earlier. */
const age = (seconds: number) =>
  srv.query(`update sign_in_failures set updated_at = updated_at - make_interval(secs => $1)`, [seconds]);

describe("sign-in throttling", () => {
  it("answers 429 with Retry-After once an account has had its failures, from any address, even for the right password", async () => {
    const email = await person();
    for (let i = 0; i < ACCOUNT_LIMIT; i++) {
      expect((await signIn(email, `wrong ${i} password`, `10.0.0.${i + 1}`)).status).toBe(401);
    }
    const held = await signIn(email, PASSWORD, "10.0.1.1");
    expect(held).toMatchObject({ status: 429, code: "rate_limited" });
    expect(Number(held.retryAfter)).toBeGreaterThan(0);
    // Another account from the same addresses is not held.
    const other = await person();
    expect((await signIn(other, PASSWORD, "10.0.0.1")).status).toBe(200);

    // Never for good: once the score has decayed, the owner signs in, and that clears the account.
    await age(Number(held.retryAfter));
    expect((await signIn(email, PASSWORD, "10.0.1.1")).status).toBe(200);
    expect((await signIn(email, "one more wrong one", "10.0.1.1")).status).toBe(401);
    expect((await signIn(email, PASSWORD, "10.0.1.1")).status).toBe(200);
  });

  it("holds an address that guesses across many accounts", async () => {
    const address = "192.0.2.77";
    for (let i = 0; i < ADDRESS_LIMIT; i++) {
      expect((await signIn(`nobody-${i}@example.com`, "guess guess guess", address)).status).toBe(401);
    }
    const email = await person();
    const held = await signIn(email, PASSWORD, address);
    expect(held).toMatchObject({ status: 429, code: "rate_limited" });
    expect((await signIn(email, PASSWORD, "192.0.2.78")).status).toBe(200);
    await age(Number(held.retryAfter));
    expect((await signIn(email, PASSWORD, address)).status).toBe(200);
  });
});
