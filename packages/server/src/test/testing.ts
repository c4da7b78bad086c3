/**
 * `@tracker/server/testing`: what the other packages' tests use to run against a real server: a server on a
 * fresh database of the test run's cluster (started by `global-setup.ts`, which the root vitest config
 * names). Only for this repository's tests: the published package carries `dist` alone.
 */

export { png } from "../modules/attachments/attachment-fixtures.js";
export { cookieBrowser, formPost } from "./browser-visit.js";
export { freshDatabase } from "./databases.js";
export { freePort } from "./free-port.js";
export { withDatabase } from "./global-setup.js";
export { type ApiClient, startTestServer, type TestServer } from "./harness.js";
export { type IdpAccount, signInAtIdp, startTestIdp, type TestIdp } from "./oidc-idp.js";
export { npm, packAndInstall } from "./pack.js";
export { spawnLogged } from "./spawn-logged.js";
