import { defineEntity, p } from "@mikro-orm/core";

/**
 * Failed sign-ins, counted per account (`account:<email>`) and per client address (`address:<ip>`) as a
 * score that halves every few minutes (`sign-in-throttle.query.ts`): past a limit sign-in answers 429 with
 * `Retry-After` until the score has decayed, so guessing is slowed to a trickle while the rightful owner is
 * never locked out for good. Kept in the database so every instance behind the balancer counts the same.
 */
export const SignInFailure = defineEntity({
  name: "SignInFailure",
  tableName: "sign_in_failures",
  properties: {
    key: p.text().primary(),
    score: p.double(),
    updatedAt: p.datetime(),
  },
});
