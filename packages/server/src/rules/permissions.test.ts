import { randomUUID } from "node:crypto";
import { sign } from "@octokit/webhooks-methods";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { hashPassword } from "../modules/users/password.js";
import { databaseFingerprint } from "../test/fingerprint.js";
import { testContract, useTestServer } from "../test/harness.js";
import { startTestIdp, type TestIdp } from "../test/oidc-idp.js";
import { OPERATION_RULES } from "./operations.js";
import { ACCESS_LEVELS, accessAllows, RULES } from "./permissions.js";
import type { Cell, Column, Row } from "./table.js";
import { tableRows } from "./table.js";

/**
 * The role × action table (`rules/table.ts`, printed in PERMISSIONS.md) against a real server: every
 * operation of the contract, and every variant of its input that asks another action, called by an admin,
 * a member, a guest and a non-member of the workspace. Allowed: a 2xx answer. Refused: the contract's 403
 * code, and nothing changed. Allowed only to some (the author, themself, ...): refused on someone else's
 * subject, allowed on the caller's own. Guests also get 404 for what sits in a team they do not belong to.
 * The expectations come from the table alone; `CASES` only says how to call each operation.
 *
 * The same calls, made by the admin with a `read`, a `write` and an `admin` key, walk the access levels:
 * each row's `kind` decides, and a key below it is refused with 403 `insufficient_access`, changing
 * nothing.
 */

// Outbound webhooks are registered and listed here, never sent: no dispatcher (whose attempts would change
// the database between two fingerprints), and a loopback URL, which only this setting allows; the same
// for the OpenID provider below (net/outbound-guard.ts).
vi.stubEnv("TRACKER_WEBHOOKS", "0");
vi.stubEnv("TRACKER_WEBHOOKS_ALLOW_PRIVATE", "1");
vi.stubEnv("TRACKER_OUTBOUND_ALLOW_PRIVATE", "1");
afterAll(() => {
  vi.unstubAllEnvs();
});

// A real OpenID provider for `PUT /sso`, which checks the provider's discovery document before saving.
let idp: TestIdp;
beforeAll(async () => {
  idp = await startTestIdp({ redirectUris: ["http://127.0.0.1/auth/sso/callback"], accounts: {} });
});
afterAll(() => idp?.close());

// Development mode: `POST /dev/reseed` exists only there.
const srv = useTestServer({ nodeEnv: "development" });

// Each walk calls every operation for every role: minutes on a loaded two-core machine, not seconds.
const WALK_MS = 180_000;

type Role = "admin" | "member" | "guest";
/** Any subject the caller may act on; someone else's; the caller's own. */
type Mode = "any" | "other" | "own";

interface Req {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  body?: unknown;
  /** Another key of the same role (a fresh user), where the case needs one. */
  token?: string;
  /** No key at all (operations with `security: []`). */
  anonymous?: boolean;
  headers?: Record<string, string>;
}

interface Case {
  /** The call for `role`, with a subject as `mode` asks; `undefined` when no such subject can exist. */
  call: (role: Role, mode: Mode) => Promise<Req>;
  /** For a variant of the input (`counts=1`): the call that asks the variant's action. */
  variant?: (role: Role, mode: Mode) => Promise<Req>;
  /** The same call on something in a team the guest does not belong to: 404 for them. */
  hidden?: () => Promise<Req>;
}

interface Fixture {
  slug: string;
  workspaceId: string;
  otherSlug: string;
  tokens: Record<Role | "non-member", string>;
  users: Record<Role, string>;
  /** A member every role may name as a target (a role change, a team or project member). */
  target: { userId: string; email: string };
  /** Pinned to the admin's workspace: a workspace key. */
  workspaceKey: string;
}
let fx: Fixture;
let n = 0;
const unique = (prefix: string) => `${prefix} ${++n} ${randomUUID().slice(0, 8)}`;
const teamKey = () => `T${++n}`;

/** Sends `req` as `token` in the fixture's workspace; the answer is checked against the contract. */
async function send(token: string | undefined, req: Req): Promise<{ status: number; body: unknown }> {
  const unversioned = req.path === "/health";
  const abort = new AbortController();
  const res = await srv.fetch(
    new Request(`${srv.url}${unversioned ? "" : "/api/v1"}${req.path}`, {
      method: req.method,
      headers: {
        ...(token && !req.anonymous ? { authorization: `Bearer ${token}` } : {}),
        "x-service-workspace": fx.slug,
        ...(req.body !== undefined ? { "content-type": "application/json" } : {}),
        ...req.headers,
      },
      body: req.body !== undefined ? JSON.stringify(req.body) : undefined,
      signal: abort.signal,
    }),
  );
  if (res.headers.get("content-type")?.startsWith("text/event-stream")) {
    abort.abort();
    return { status: res.status, body: undefined };
  }
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** A setup call: must succeed; its body. */
async function made<T = Record<string, unknown>>(token: string, req: Req): Promise<T> {
  const res = await send(token, req);
  if (res.status >= 300) throw new Error(`setup ${req.method} ${req.path}: ${JSON.stringify(res.body)}`);
  return res.body as T;
}
const admin = () => fx.tokens.admin;
const tokenOf = (role: Role) => fx.tokens[role];
/** Someone else than `role`'s user: the member for the admin, the admin for the others. */
const otherThan = (role: Role): Role => (role === "admin" ? "member" : "admin");

// ---- Things to act on, made by the admin unless said otherwise --------------------------------

async function issue(team = "ENG", token = admin()): Promise<string> {
  const body = await made<{ issue: { identifier: string } }>(token, {
    method: "POST",
    path: "/issues",
    body: { team, title: unique("Issue") },
  });
  return body.issue.identifier;
}
async function comment(identifier: string, token: string): Promise<string> {
  const body = await made<{ comment: { id: string } }>(token, {
    method: "POST",
    path: `/issues/${identifier}/comments`,
    body: { body: unique("Comment") },
  });
  return body.comment.id;
}
/** A file uploaded to the issue by `token` (the JSON text `send` writes is the file's bytes). */
async function attachment(identifier: string, token: string): Promise<{ id: string; url: string }> {
  const body = await made<{ attachment: { id: string; url: string } }>(token, {
    method: "POST",
    path: `/issues/${identifier}/attachments?filename=note.txt`,
    body: { text: unique("File") },
  });
  return body.attachment;
}
async function invite(): Promise<{ id: string; url: string }> {
  return inviteFor(`${randomUUID()}@example.com`);
}
async function inviteFor(email: string): Promise<{ id: string; url: string }> {
  const body = await made<{ invite: { id: string; url: string } }>(admin(), {
    method: "POST",
    path: "/invites",
    body: { email },
  });
  return body.invite;
}
async function label(): Promise<string> {
  const body = await made<{ label: { id: string } }>(admin(), {
    method: "POST",
    path: "/labels",
    body: { name: unique("Label") },
  });
  return body.label.id;
}
async function project(teams = ["ENG"], lead?: string): Promise<string> {
  const body = await made<{ project: { id: string } }>(admin(), {
    method: "POST",
    path: "/projects",
    body: { name: unique("Project"), teams, ...(lead ? { lead } : {}) },
  });
  return body.project.id;
}
async function initiative(team = "ENG"): Promise<string> {
  const body = await made<{ initiative: { id: string } }>(admin(), {
    method: "POST",
    path: "/initiatives",
    body: { name: unique("Initiative") },
  });
  const id = body.initiative.id;
  // Guests see an initiative through a project they see.
  await made(admin(), {
    method: "POST",
    path: "/projects",
    body: { name: unique("Project"), teams: [team], initiative: id },
  });
  return id;
}
async function cycle(): Promise<string> {
  const body = await made<{ cycle: { id: string } }>(admin(), {
    method: "POST",
    path: "/cycles",
    body: { team: "CYC" },
  });
  return body.cycle.id;
}
async function document(team = "ENG", token = admin()): Promise<string> {
  const body = await made<{ document: { id: string } }>(token, {
    method: "POST",
    path: "/documents",
    body: { title: unique("Document"), team },
  });
  return body.document.id;
}
async function view(role: Role): Promise<string> {
  const body = await made<{ view: { id: string } }>(tokenOf(role), {
    method: "POST",
    path: "/views",
    body: { name: unique("View") },
  });
  return body.view.id;
}
async function team(members: Role[] = []): Promise<string> {
  const key = teamKey();
  await made(admin(), { method: "POST", path: "/teams", body: { key, name: unique("Team") } });
  for (const role of members)
    await made(admin(), { method: "POST", path: `/teams/${key}/members`, body: { userId: fx.users[role] } });
  return key;
}
async function stateOf(key: string): Promise<string> {
  const body = await made<{ states: { id: string }[] }>(admin(), {
    method: "GET",
    path: `/teams/${key}/workflows`,
  });
  return body.states[0]!.id;
}
/** A new started state of the team, made by the admin. */
async function workflowState(key: string): Promise<string> {
  const body = await made<{ state: { id: string } }>(admin(), {
    method: "POST",
    path: `/teams/${key}/states`,
    body: { name: unique("State"), type: "started" },
  });
  return body.state.id;
}
async function workflowRule(key: string): Promise<string> {
  const body = await made<{ id: string }>(admin(), {
    method: "POST",
    path: `/teams/${key}/workflows`,
    body: { trigger: "pr_merged", targetStateId: await stateOf(key) },
  });
  return body.id;
}
/** A webhook endpoint, and one delivery of it (a label made after it was registered). */
async function webhook(): Promise<{ id: string; deliveryId: string }> {
  const body = await made<{ webhook: { id: string } }>(admin(), {
    method: "POST",
    path: "/webhooks",
    body: { url: "http://127.0.0.1:9/hook", events: ["label.created"] },
  });
  const id = body.webhook.id;
  await label();
  const log = await made<{ deliveries: { id: string }[] }>(admin(), get(`/webhooks/${id}/deliveries`));
  return { id, deliveryId: log.deliveries[0]!.id };
}
/** A GitHub `ping` delivery to the workspace, signed with the secret it was just connected with. */
/** An agent added by the admin (with admin access, so keys of every level can be made from its own). */
async function agent(): Promise<{ name: string; token: string }> {
  const body = await made<{ agent: { name: string; token: string } }>(admin(), {
    method: "POST",
    path: "/agents",
    body: { name: `bot-${++n}-${randomUUID().slice(0, 8)}`, access: "admin" },
  });
  return body.agent;
}
/** A session of a new agent on a new issue of the team, opened by the admin delegating it. */
async function agentSession(team = "ENG"): Promise<{ id: string; token: string }> {
  const bot = await agent();
  const identifier = await issue(team);
  await made(admin(), { method: "PATCH", path: `/issues/${identifier}`, body: { delegate: bot.name } });
  const body = await made<{ sessions: { id: string }[] }>(bot.token, {
    method: "GET",
    path: "/agent-sessions",
  });
  return { id: body.sessions[0]!.id, token: bot.token };
}
const onAgentSession = (method: Req["method"], suffix = "", body?: unknown) =>
  inTeam(async (team) => ({
    method,
    path: `/agent-sessions/${(await agentSession(team)).id}${suffix}`,
    body,
  }));
async function githubDelivery(): Promise<Req> {
  const secret = `secret-${randomUUID()}`;
  await made(admin(), { method: "PUT", path: "/workspace/codehost", body: { provider: "github", secret } });
  const body = { zen: unique("Ping") };
  return {
    method: "POST",
    path: `/codehost/github/${fx.workspaceId}`,
    body,
    anonymous: true,
    headers: {
      "x-github-event": "ping",
      "x-github-delivery": randomUUID(),
      "x-hub-signature-256": await sign(secret, JSON.stringify(body)),
    },
  };
}
/** A signed-in browser of the user's (as sign-in writes it): its id. */
async function sessionOf(userId: string): Promise<string> {
  const id = randomUUID();
  await srv.query(
    `insert into sessions (id, user_id, token_hash, user_agent, created_at, last_seen_at, expires_at)
     values ($1, $2, $3, 'Test browser', now(), now(), now() + interval '1 day')`,
    [id, userId, randomUUID()],
  );
  return id;
}
/** An app the user authorised for the fixture's workspace, as the OAuth server stores the grant: its id. */
async function grantOf(userId: string): Promise<string> {
  const jti = randomUUID().replaceAll("-", "");
  await srv.query(
    `insert into oauth_store (kind, id_hash, payload, expires_at)
     values ('Grant', encode(sha256(convert_to($1, 'UTF8')), 'hex'), $2::jsonb, now() + interval '1 day')`,
    [
      jti,
      JSON.stringify({
        jti,
        kind: "Grant",
        accountId: `${userId}:${fx.workspaceId}`,
        clientId: "test-app",
        openid: { scope: "read" },
        resources: { [`${srv.url}/api/v1`]: "read" },
        iat: Math.floor(Date.now() / 1000),
      }),
    ],
  );
  return (await srv.query<{ id: string }>("select md5($1)::uuid::text as id", [jti]))[0]!.id;
}
const KNOWN_PASSWORD = "a known password 123";
const KNOWN_HASH = hashPassword(KNOWN_PASSWORD);

/** A new user of `role` in the workspace, with their own account key. */
function freshUser(role: Role) {
  return srv.addMember(admin(), role);
}
/** A team the caller manages (`own`: they belong to it) or does not; guests never manage one. */
function teamFor(role: Role, mode: Mode): Promise<string> {
  if (role === "guest" || mode !== "other") return Promise.resolve("ENG");
  return Promise.resolve("OPS");
}

const get = (path: string): Req => ({ method: "GET", path });
/** A call on something made in a team: in ENG for the roles, in HID (hidden from the guest) for `hidden`. */
const inTeam = (make: (team: string) => Promise<Req>): Case => ({
  call: () => make("ENG"),
  hidden: () => make("HID"),
});
/** A call on a new issue of the team: `suffix` after its path, with `body`. */
const onIssue = (method: Req["method"], suffix = "", body?: () => Promise<unknown> | unknown) =>
  inTeam(async (team) => ({ method, path: `/issues/${await issue(team)}${suffix}`, body: await body?.() }));
const onProject = (method: Req["method"], suffix = "", body?: unknown) =>
  inTeam(async (team) => ({ method, path: `/projects/${await project([team])}${suffix}`, body }));
const onDocument = (method: Req["method"], body?: unknown) =>
  inTeam(async (team) => ({ method, path: `/documents/${await document(team)}`, body }));
const onInitiative = (suffix = "") =>
  inTeam(async (team) => get(`/initiatives/${await initiative(team)}${suffix}`));

/** How to call each operation of the contract. */
const CASES: Record<keyof typeof OPERATION_RULES, Case> = {
  getHealth: { call: async () => ({ ...get("/health"), anonymous: true }) },
  listWorkspaces: { call: async () => get("/workspaces") },
  createWorkspace: {
    call: async () => ({ method: "POST", path: "/workspaces", body: { name: unique("Workspace") } }),
  },
  setActiveWorkspace: {
    call: async () => ({ method: "PUT", path: "/workspaces/active", body: { workspace: fx.slug } }),
  },
  updateWorkspace: { call: async () => ({ method: "PATCH", path: "/workspace", body: { name: "Renamed" } }) },
  getCodehost: { call: async () => get("/workspace/codehost") },
  connectCodehost: {
    call: async () => ({ method: "PUT", path: "/workspace/codehost", body: { provider: "github" } }),
  },
  disconnectCodehost: { call: async () => ({ method: "DELETE", path: "/workspace/codehost" }) },
  receiveGithubDelivery: { call: githubDelivery },
  listInvites: { call: async () => get("/invites") },
  createInvite: {
    call: async () => ({ method: "POST", path: "/invites", body: { email: `${randomUUID()}@example.com` } }),
  },
  acceptInvite: {
    call: async () => {
      const token = (await invite()).url.split("/").pop()!;
      return { method: "POST", path: "/invites/accept", body: { token, name: "Invited" }, anonymous: true };
    },
  },
  signIn: {
    call: async () => {
      const email = `${randomUUID()}@example.com`;
      const token = (await inviteFor(email)).url.split("/").pop()!;
      await send(undefined, {
        method: "POST",
        path: "/invites/accept",
        body: { token, name: "Signs in", password: "correct horse battery" },
        anonymous: true,
      });
      return {
        method: "POST",
        path: "/auth/sign-in",
        body: { email, password: "correct horse battery" },
        anonymous: true,
      };
    },
  },
  signOut: { call: async () => ({ method: "POST", path: "/auth/sign-out" }) },
  createPasswordReset: {
    call: async () => ({ method: "POST", path: `/members/${fx.target.userId}/password-reset` }),
  },
  resetPassword: {
    call: async () => {
      const link = await made<{ reset: { url: string } }>(admin(), {
        method: "POST",
        path: `/members/${fx.target.userId}/password-reset`,
      });
      const token = link.reset.url.split("/").pop()!;
      return {
        method: "POST",
        path: "/auth/password-reset",
        body: { token, password: "a new password 123" },
        anonymous: true,
      };
    },
  },
  signOutEverywhere: { call: async () => ({ method: "POST", path: "/auth/sign-out-everywhere" }) },
  getSession: { call: async () => get("/auth/session") },
  listSessions: { call: async () => get("/auth/sessions") },
  deleteSession: {
    call: async (role) => ({ method: "DELETE", path: `/auth/sessions/${await sessionOf(fx.users[role])}` }),
  },
  changePassword: {
    call: async (role) => {
      await srv.query("update users set password_hash = $1 where id = $2", [
        await KNOWN_HASH,
        fx.users[role],
      ]);
      // The same password again: it stays known for the next call.
      return {
        method: "POST",
        path: "/auth/password",
        body: { currentPassword: KNOWN_PASSWORD, newPassword: KNOWN_PASSWORD },
      };
    },
  },
  updateMe: { call: async () => ({ method: "PATCH", path: "/me", body: { name: "Renamed Person" } }) },
  listOAuthGrants: { call: async () => get("/oauth-grants") },
  revokeOAuthGrant: {
    call: async (role) => ({ method: "DELETE", path: `/oauth-grants/${await grantOf(fx.users[role])}` }),
  },
  deleteInvite: { call: async () => ({ method: "DELETE", path: `/invites/${(await invite()).id}` }) },
  updateMember: {
    call: async () => ({ method: "PATCH", path: `/members/${fx.target.userId}`, body: { role: "member" } }),
  },
  removeMember: {
    call: async (role, mode) => {
      if (mode === "own") {
        const user = await freshUser(role);
        return { method: "DELETE", path: `/members/${user.userId}`, token: user.token };
      }
      const user = mode === "any" ? await freshUser("member") : fx.target;
      return { method: "DELETE", path: `/members/${user.userId}` };
    },
  },
  listUsers: { call: async () => get("/users") },
  listApiKeys: { call: async () => get("/api-keys") },
  createApiKey: {
    call: async () => ({ method: "POST", path: "/api-keys", body: { name: "k", scope: "workspace" } }),
    variant: async () => ({ method: "POST", path: "/api-keys", body: { name: "k", scope: "account" } }),
  },
  deleteApiKey: {
    call: async (role) => {
      const key = await made<{ key: { id: string } }>(tokenOf(role), {
        method: "POST",
        path: "/api-keys",
        body: { name: "doomed" },
      });
      return { method: "DELETE", path: `/api-keys/${key.key.id}` };
    },
  },
  listTeams: { call: async () => get("/teams") },
  createTeam: {
    call: async () => ({ method: "POST", path: "/teams", body: { key: teamKey(), name: unique("Team") } }),
  },
  listAllTeams: { call: async () => get("/teams/all") },
  getTeam: inTeam(async (team) => get(`/teams/${team}`)),
  updateTeam: {
    call: async (role, mode) => {
      if (mode !== "own") return { method: "PATCH", path: "/teams/ENG", body: { name: "Engineering" } };
      // Their personal space; a guest keeps the one they made as a member.
      const user = await freshUser(role === "guest" ? "member" : role);
      const key = teamKey();
      await made(user.token, { method: "POST", path: "/teams", body: { key, name: "Mine", personal: true } });
      if (role === "guest")
        await made(admin(), { method: "PATCH", path: `/members/${user.userId}`, body: { role: "guest" } });
      return { method: "PATCH", path: `/teams/${key}`, body: { name: "Still mine" }, token: user.token };
    },
    hidden: async () => ({ method: "PATCH", path: "/teams/HID", body: { name: "Hidden" } }),
  },
  deleteTeam: { call: async () => ({ method: "DELETE", path: `/teams/${await team()}` }) },
  joinTeam: inTeam(async (team) => ({ method: "POST", path: `/teams/${team}/join` })),
  listTeamMembers: inTeam(async (team) => get(`/teams/${team}/members`)),
  addTeamMember: {
    call: async (role, mode) => ({
      method: "POST",
      path: `/teams/${await teamFor(role, mode)}/members`,
      body: { userId: fx.target.userId },
    }),
  },
  removeTeamMember: {
    call: async (role, mode) => {
      if (mode === "own") {
        const key = await team([role]);
        return { method: "DELETE", path: `/teams/${key}/members/me` };
      }
      const key = await team(["member", "guest"]);
      await made(admin(), {
        method: "POST",
        path: `/teams/${key}/members`,
        body: { userId: fx.target.userId },
      });
      return { method: "DELETE", path: `/teams/${key}/members/${fx.target.userId}` };
    },
    hidden: async () => ({ method: "DELETE", path: `/teams/HID/members/${fx.target.userId}` }),
  },
  listWorkflows: inTeam(async (team) => get(`/teams/${team}/workflows`)),
  upsertWorkflow: {
    call: async (role, mode) => {
      const key = await teamFor(role, mode);
      return {
        method: "POST",
        path: `/teams/${key}/workflows`,
        body: { trigger: "pr_opened", targetStateId: await stateOf(key) },
      };
    },
  },
  deleteWorkflow: {
    call: async (role, mode) => {
      const key = await teamFor(role, mode);
      return { method: "DELETE", path: `/teams/${key}/workflows/${await workflowRule(key)}` };
    },
  },
  createWorkflowState: {
    call: async (role, mode) => ({
      method: "POST",
      path: `/teams/${await teamFor(role, mode)}/states`,
      body: { name: unique("State"), type: "unstarted" },
    }),
  },
  updateWorkflowState: {
    call: async (role, mode) => {
      const key = await teamFor(role, mode);
      return {
        method: "PATCH",
        path: `/teams/${key}/states/${await workflowState(key)}`,
        body: { name: unique("Renamed"), color: "#123456", position: 0 },
      };
    },
  },
  deleteWorkflowState: {
    call: async (role, mode) => {
      const key = await teamFor(role, mode);
      return { method: "DELETE", path: `/teams/${key}/states/${await workflowState(key)}` };
    },
  },
  listIssues: inTeam(async (team) => get(`/issues?team=${team}`)),
  countIssues: inTeam(async (team) => get(`/issues/counts?team=${team}&groupBy=assignee`)),
  createIssue: inTeam(async (team) => ({
    method: "POST",
    path: "/issues",
    body: { team, title: unique("Issue") },
  })),
  createIssues: inTeam(async (team) => ({
    method: "POST",
    path: "/issues/batch",
    body: { issues: [{ team, title: "One" }] },
  })),
  // Admins only: refused outright to everyone else, so there is no hidden team to ask about.
  importIssues: {
    call: async () => ({
      method: "POST",
      path: "/import/issues",
      body: { issues: [{ team: "ENG", title: "Imported", source: { system: "test", id: unique("src") } }] },
    }),
  },
  moveIssues: {
    call: async () => ({
      method: "POST",
      path: "/issues/move",
      body: { identifiers: [await issue()], team: "ENG2" },
    }),
    hidden: async () => ({
      method: "POST",
      path: "/issues/move",
      body: { identifiers: [await issue("HID")], team: "ENG" },
    }),
  },
  getIssue: onIssue("GET"),
  updateIssue: onIssue("PATCH", "", () => ({ title: "Changed" })),
  getIssuePageData: onIssue("GET", "/page-data"),
  getIssueHistory: onIssue("GET", "/history"),
  archiveIssue: onIssue("POST", "/archive"),
  unarchiveIssue: onIssue("POST", "/unarchive"),
  deleteIssue: {
    call: async (role, mode) => {
      const creator = mode === "own" ? role : otherThan(role);
      return { method: "DELETE", path: `/issues/${await issue("ENG", tokenOf(creator))}` };
    },
    hidden: async () => ({ method: "DELETE", path: `/issues/${await issue("HID")}` }),
  },
  createIssueLink: onIssue("POST", "/links", () => ({ url: "https://example.com/a" })),
  listIssueRelations: onIssue("GET", "/relations"),
  createIssueRelation: onIssue("POST", "/relations", async () => ({ issue: await issue(), type: "related" })),
  deleteIssueRelation: inTeam(async (team) => {
    const from = await issue(team);
    const relation = await made<{ relation: { id: string } }>(admin(), {
      method: "POST",
      path: `/issues/${from}/relations`,
      body: { issue: await issue(team), type: "blocks" },
    });
    return { method: "DELETE", path: `/issues/${from}/relations/${relation.relation.id}` };
  }),
  listComments: onIssue("GET", "/comments"),
  createComment: onIssue("POST", "/comments", () => ({ body: "Hi" })),
  updateComment: {
    call: async (role, mode) => {
      const id = await issue();
      const author = mode === "own" ? role : otherThan(role);
      return {
        method: "PATCH",
        path: `/issues/${id}/comments/${await comment(id, tokenOf(author))}`,
        body: { body: "Edited" },
      };
    },
    hidden: async () => {
      const id = await issue("HID");
      return {
        method: "PATCH",
        path: `/issues/${id}/comments/${await comment(id, admin())}`,
        body: { body: "E" },
      };
    },
  },
  listCommentRevisions: {
    call: async () => {
      const id = await issue();
      return get(`/issues/${id}/comments/${await comment(id, admin())}/revisions`);
    },
    hidden: async () => {
      const id = await issue("HID");
      return get(`/issues/${id}/comments/${await comment(id, admin())}/revisions`);
    },
  },
  deleteComment: {
    call: async (role, mode) => {
      const id = await issue();
      const author = mode === "own" ? role : otherThan(role);
      return { method: "DELETE", path: `/issues/${id}/comments/${await comment(id, tokenOf(author))}` };
    },
    hidden: async () => {
      const id = await issue("HID");
      return { method: "DELETE", path: `/issues/${id}/comments/${await comment(id, admin())}` };
    },
  },
  listAttachments: onIssue("GET", "/attachments"),
  uploadAttachment: onIssue("POST", "/attachments?filename=note.txt", () => ({ text: "log" })),
  deleteAttachment: {
    call: async (role, mode) => {
      const id = await issue();
      const uploader = mode === "own" ? role : otherThan(role);
      return {
        method: "DELETE",
        path: `/issues/${id}/attachments/${(await attachment(id, tokenOf(uploader))).id}`,
      };
    },
    hidden: async () => {
      const id = await issue("HID");
      return { method: "DELETE", path: `/issues/${id}/attachments/${(await attachment(id, admin())).id}` };
    },
  },
  /** The signed URL is the right to read: any caller (no key at all) may follow it. */
  downloadAttachment: {
    call: async () => ({
      ...get((await attachment(await issue(), admin())).url.slice("/api/v1".length)),
      anonymous: true,
    }),
  },
  listProjects: { call: async () => get("/projects") },
  createProject: inTeam(async (team) => ({
    method: "POST",
    path: "/projects",
    body: { name: unique("Project"), teams: [team] },
  })),
  getProject: onProject("GET"),
  updateProject: onProject("PATCH", "", { description: "New" }),
  moveProject: {
    call: async () => ({ method: "POST", path: `/projects/${await project()}/move`, body: { team: "ENG2" } }),
  },
  listProjectMembers: onProject("GET", "/members"),
  addProjectMember: {
    call: async (role, mode) => {
      // Own: the caller leads it. Someone else's: on a team the caller does not manage, led by nobody.
      const id =
        mode === "own"
          ? await project(["ENG"], fx.users[role])
          : await project([role === "guest" ? "ENG" : "OPS"]);
      return { method: "POST", path: `/projects/${id}/members`, body: { user: fx.target.userId } };
    },
    hidden: async () => ({
      method: "POST",
      path: `/projects/${await project(["HID"])}/members`,
      body: { user: fx.target.userId },
    }),
  },
  removeProjectMember: {
    call: async (role, mode) => {
      const id = await project([role === "guest" ? "ENG" : "OPS"]);
      const user = mode === "own" ? fx.users[role] : fx.target.userId;
      await made(admin(), { method: "POST", path: `/projects/${id}/members`, body: { user } });
      return { method: "DELETE", path: `/projects/${id}/members?user=${user}` };
    },
    hidden: async () => {
      const id = await project(["HID"]);
      await made(admin(), {
        method: "POST",
        path: `/projects/${id}/members`,
        body: { user: fx.target.userId },
      });
      return { method: "DELETE", path: `/projects/${id}/members?user=${fx.target.userId}` };
    },
  },
  getProjectPageData: onProject("GET", "/page-data"),
  listInitiatives: { call: async () => get("/initiatives") },
  createInitiative: {
    call: async () => ({ method: "POST", path: "/initiatives", body: { name: unique("Initiative") } }),
  },
  getInitiative: onInitiative(),
  updateInitiative: {
    call: async () => ({
      method: "PATCH",
      path: `/initiatives/${await initiative()}`,
      body: { description: "D" },
    }),
  },
  getInitiativePageData: onInitiative("/page-data"),
  moveInitiative: {
    call: async () => ({
      method: "POST",
      path: `/initiatives/${await initiative()}/move`,
      body: { workspace: fx.otherSlug, team: "RCV" },
    }),
  },
  listCycles: { call: async () => get("/cycles?team=CYC"), hidden: async () => get("/cycles?team=HID") },
  createCycle: { call: async () => ({ method: "POST", path: "/cycles", body: { team: "CYC" } }) },
  updateCycle: {
    call: async () => ({ method: "PATCH", path: `/cycles/${await cycle()}`, body: { name: "Named" } }),
  },
  deleteCycle: { call: async () => ({ method: "DELETE", path: `/cycles/${await cycle()}` }) },
  listLabels: { call: async () => get("/labels"), variant: async () => get("/labels?counts=1") },
  createLabel: { call: async () => ({ method: "POST", path: "/labels", body: { name: unique("Label") } }) },
  updateLabel: {
    call: async () => ({
      method: "PATCH",
      path: `/labels/${await label()}`,
      body: { description: "Described" },
    }),
  },
  deleteLabel: { call: async () => ({ method: "DELETE", path: `/labels/${await label()}` }) },
  mergeLabel: {
    call: async () => ({
      method: "POST",
      path: `/labels/${await label()}/merge`,
      body: { into: await label() },
    }),
  },
  listDocuments: { call: async () => get("/documents"), hidden: async () => get("/documents?team=HID") },
  createDocument: inTeam(async (team) => ({
    method: "POST",
    path: "/documents",
    body: { title: "Doc", team },
  })),
  getDocument: onDocument("GET"),
  updateDocument: onDocument("PATCH", { title: "Retitled" }),
  deleteDocument: {
    call: async (role, mode) => {
      const creator = mode === "own" ? role : otherThan(role);
      return { method: "DELETE", path: `/documents/${await document("ENG", tokenOf(creator))}` };
    },
    hidden: async () => ({ method: "DELETE", path: `/documents/${await document("HID")}` }),
  },
  listUpdates: inTeam(async (team) => get(`/updates?team=${team}`)),
  createUpdate: {
    call: async () => ({
      method: "POST",
      path: "/updates",
      body: { team: "ENG", title: "Week", content: "Fine." },
    }),
  },
  getUpdateCandidates: inTeam(async (team) => get(`/updates/candidates?team=${team}`)),
  listViews: { call: async () => get("/views") },
  createView: { call: async () => ({ method: "POST", path: "/views", body: { name: unique("View") } }) },
  // Views are their owner's: each role acts on one of its own.
  updateView: {
    call: async (role) => ({ method: "PATCH", path: `/views/${await view(role)}`, body: { favorite: true } }),
  },
  deleteView: { call: async (role) => ({ method: "DELETE", path: `/views/${await view(role)}` }) },
  listViewDefaults: { call: async () => get("/view-defaults") },
  putViewDefault: {
    call: async () => ({ method: "PUT", path: "/view-defaults", body: { viewKey: "issues", scope: "user" } }),
    variant: async () => ({
      method: "PUT",
      path: "/view-defaults",
      body: { viewKey: "issues", scope: "workspace" },
    }),
  },
  deleteViewDefault: {
    call: async (role) => {
      const viewKey = `k${++n}`;
      await made(tokenOf(role), { method: "PUT", path: "/view-defaults", body: { viewKey } });
      return { method: "DELETE", path: `/view-defaults?viewKey=${viewKey}&scope=user` };
    },
    variant: async () => {
      const viewKey = `k${++n}`;
      await made(admin(), { method: "PUT", path: "/view-defaults", body: { viewKey, scope: "workspace" } });
      return { method: "DELETE", path: `/view-defaults?viewKey=${viewKey}&scope=workspace` };
    },
  },
  getDigest: { call: async () => get("/my/digest") },
  getSsoSettings: { call: async () => get("/sso") },
  // An admin's reaches the provider started below, which answers discovery.
  putSsoSettings: {
    call: async () => ({
      method: "PUT",
      path: "/sso",
      body: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret },
    }),
  },
  deleteSsoSettings: { call: async () => ({ method: "DELETE", path: "/sso" }) },
  listWebhooks: { call: async () => get("/webhooks") },
  createWebhook: {
    call: async () => ({ method: "POST", path: "/webhooks", body: { url: "http://127.0.0.1:9/new" } }),
  },
  getWebhook: { call: async () => get(`/webhooks/${(await webhook()).id}`) },
  updateWebhook: {
    call: async () => ({
      method: "PATCH",
      path: `/webhooks/${(await webhook()).id}`,
      body: { enabled: false },
    }),
  },
  deleteWebhook: { call: async () => ({ method: "DELETE", path: `/webhooks/${(await webhook()).id}` }) },
  listWebhookDeliveries: { call: async () => get(`/webhooks/${(await webhook()).id}/deliveries`) },
  redeliverWebhook: {
    call: async () => {
      const { id, deliveryId } = await webhook();
      return { method: "POST", path: `/webhooks/${id}/deliveries/${deliveryId}/redeliver` };
    },
  },
  listAgents: { call: async () => get("/agents") },
  createAgent: {
    call: async () => ({
      method: "POST",
      path: "/agents",
      body: { name: `bot-${++n}-${randomUUID().slice(0, 8)}` },
    }),
  },
  listAgentSessions: inTeam(async (team) => get(`/agent-sessions?issue=${await issue(team)}`)),
  getAgentSession: onAgentSession("GET"),
  // Only the session's agent posts in it: on their own, the call is the agent's.
  createAgentActivity: {
    call: async (_, mode) => {
      const session = await agentSession();
      return {
        method: "POST",
        path: `/agent-sessions/${session.id}/activities`,
        body: { kind: "thought", body: "Thinking" },
        ...(mode === "own" ? { token: session.token } : {}),
      };
    },
    hidden: async () => ({
      method: "POST",
      path: `/agent-sessions/${(await agentSession("HID")).id}/activities`,
      body: { kind: "thought", body: "Thinking" },
    }),
  },
  createAgentMessage: onAgentSession("POST", "/messages", { body: "Any news?" }),
  // Guests may not stop one: refused outright, no subject to hide.
  stopAgentSession: { call: onAgentSession("POST", "/stop").call },
  listNotifications: { call: async () => get("/my/notifications") },
  markNotificationsRead: { call: async () => ({ method: "POST", path: "/my/notifications/read", body: {} }) },
  getNotificationSettings: { call: async () => get("/my/notification-settings") },
  putNotificationSettings: {
    call: async () => ({ method: "PUT", path: "/my/notification-settings", body: { email: "daily" } }),
  },
  getIssueSubscription: onIssue("GET", "/subscription"),
  subscribeIssue: onIssue("PUT", "/subscription"),
  unsubscribeIssue: onIssue("DELETE", "/subscription"),
  streamEvents: { call: async () => get("/events") },
  reseedDev: { call: async () => ({ method: "POST", path: "/dev/reseed" }) },
};

beforeAll(async () => {
  const a = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
  const adminToken = a.apiKey.token;
  const member = await srv.addMember(adminToken, "member");
  const guest = await srv.addMember(adminToken, "guest");
  const target = await srv.addMember(adminToken, "member");
  const stranger = await srv.bootstrap();
  fx = {
    slug: a.workspace.slug,
    workspaceId: a.workspace.id,
    otherSlug: "",
    tokens: {
      admin: adminToken,
      member: member.token,
      guest: guest.token,
      "non-member": stranger.apiKey.token,
    },
    users: { admin: a.user.id, member: member.userId, guest: guest.userId },
    target: { userId: target.userId, email: target.email },
    workspaceKey: "",
  };
  const api = (method: Req["method"], path: string, body?: unknown) =>
    made(adminToken, { method, path, body });
  const pinned = await api("POST", "/api-keys", { name: "pinned", scope: "workspace" });
  fx.workspaceKey = (pinned as { key: { token: string } }).key.token;
  // ENG and ENG2: everyone's. OPS: a team the member and the guest are not in. HID: hidden from the guest.
  for (const key of ["ENG2", "OPS", "HID"]) await api("POST", "/teams", { key, name: key });
  await api("POST", "/teams", { key: "CYC", name: "Cycles", cyclesEnabled: true });
  for (const key of ["ENG", "ENG2", "CYC"])
    for (const who of [member, guest]) await api("POST", `/teams/${key}/members`, { userId: who.userId });
  // The workspace an initiative moves into, where the admin is an admin too.
  const other = await made<{ workspace: { slug: string } }>(adminToken, {
    method: "POST",
    path: "/workspaces",
    body: { name: unique("Receiving") },
  });
  fx.otherSlug = other.workspace.slug;
  await api("PUT", "/workspaces/active", { workspace: fx.slug });
  const receiving = await srv.fetch(
    new Request(`${srv.url}/api/v1/teams`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${adminToken}`,
        "x-service-workspace": fx.otherSlug,
        "content-type": "application/json",
      },
      body: JSON.stringify({ key: "RCV", name: "Receiving" }),
    }),
  );
  expect(receiving.status).toBe(201);
});

const rows = () => tableRows(testContract().operations);
const roles: Role[] = ["admin", "member", "guest"];
const callOf = (row: Row, role: Role, mode: Mode) => {
  const c = CASES[row.operation.operationId as keyof typeof CASES];
  return row.when ? c.variant!(role, mode) : c.call(role, mode);
};

interface Planned {
  what: string;
  req: Req;
  token: string;
  expect: { status: "2xx" } | { status: 403; code: string } | { status: 404 };
}

describe("role × action", () => {
  it("has a case for every operation of the contract, and a variant call for every variant", () => {
    expect(Object.keys(CASES).sort()).toEqual(
      testContract()
        .operations.map((o) => o.operationId)
        .sort(),
    );
    for (const [id, rule] of Object.entries(OPERATION_RULES))
      expect({ id, variant: !!CASES[id as keyof typeof CASES].variant }).toEqual({
        id,
        variant: !!rule.variant,
      });
  });

  it(
    "refuses what the table refuses, with its code, and changes nothing",
    async () => {
      // Every subject first, then the refused calls between two fingerprints.
      const planned: Planned[] = [];
      for (const row of rows()) {
        for (const role of roles) {
          const cell: Cell = row.cells[role as Column];
          if (cell.kind === "allowed") continue;
          const req = await callOf(row, role, "other");
          planned.push({
            what: `${row.operation.operationId}${row.when ? ` (${row.when})` : ""} as ${role}`,
            req,
            token: req.token ?? tokenOf(role),
            expect: { status: 403, code: cell.code },
          });
        }
      }
      const before = await databaseFingerprint(srv);
      for (const p of planned) await expectAnswer(p);
      expect(await databaseFingerprint(srv)).toBe(before);
      expect(planned.length).toBeGreaterThan(40);
    },
    WALK_MS,
  );

  it(
    "allows what the table allows, and what it allows to some on their own",
    async () => {
      let calls = 0;
      for (const row of rows()) {
        for (const role of roles) {
          const cell: Cell = row.cells[role as Column];
          if (cell.kind === "refused") continue;
          const req = await callOf(row, role, cell.kind === "only" ? "own" : "any");
          await expectAnswer({
            what: `${row.operation.operationId}${row.when ? ` (${row.when})` : ""} as ${role}${cell.kind === "only" ? " on their own" : ""}`,
            req,
            token: req.token ?? tokenOf(role),
            expect: { status: "2xx" },
          });
          calls++;
        }
      }
      expect(calls).toBeGreaterThan(200);
    },
    WALK_MS,
  );

  it(
    "refuses a non-member on every operation that names the workspace, changing nothing",
    async () => {
      const before = await databaseFingerprint(srv);
      for (const row of rows()) {
        const cell = row.cells["non-member"];
        if (cell.kind !== "refused") continue;
        const op = row.operation;
        // Refused before anything is looked up or read: placeholders do.
        const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
          name === "identifier" ? "ENG-1" : name === "key" ? "ENG" : randomUUID(),
        );
        await expectAnswer({
          what: `${op.operationId} as a non-member`,
          req: {
            method: op.method.toUpperCase() as Req["method"],
            path,
            body:
              op.operationId === "setActiveWorkspace"
                ? { workspace: fx.slug }
                : ["post", "put", "patch"].includes(op.method)
                  ? {}
                  : undefined,
          },
          token: fx.tokens["non-member"],
          expect: { status: 403, code: cell.code },
        });
      }
      expect(await databaseFingerprint(srv)).toBe(before);
    },
    WALK_MS,
  );

  it("answers a guest 404 for what sits in a team they do not belong to", async () => {
    let calls = 0;
    for (const row of rows()) {
      const id = row.operation.operationId;
      const c = CASES[id as keyof typeof CASES];
      // Refused outright, a guest is refused before anything is looked up: no subject to hide.
      if (row.when || !c.hidden) continue;
      expect({ id, guest: row.cells.guest.kind }).not.toEqual({ id, guest: "refused" });
      const req = await c.hidden();
      await expectAnswer({
        what: `${id} as a guest, hidden`,
        req,
        token: fx.tokens.guest,
        expect: { status: 404 },
      });
      calls++;
    }
    expect(calls).toBeGreaterThan(30);
  });

  it("refuses a workspace key what only an account key may do", async () => {
    for (const req of [
      CASES.createWorkspace.call("admin", "any"),
      CASES.createApiKey.variant!("admin", "any"),
    ])
      await expectAnswer({
        what: `${(await req).path} with a workspace key`,
        req: await req,
        token: fx.workspaceKey,
        expect: { status: 403, code: "forbidden" },
      });
  });
});

describe("access level × operation", () => {
  type Level = (typeof ACCESS_LEVELS)[number];
  /** A key of `level` for the owner of `token` (an account key, as the fixture's are). */
  const keys = new Map<string, string>();
  async function keyOf(token: string, level: Level): Promise<string> {
    const id = `${token} ${level}`;
    if (!keys.has(id)) {
      const ask = (scope: string) =>
        send(token, {
          method: "POST",
          path: "/api-keys",
          body: { name: `${level} key`, scope, access: level },
        });
      // An agent's key is a workspace key, which makes workspace keys only.
      let res = await ask("account");
      if (res.status === 403) res = await ask("workspace");
      if (res.status >= 300) throw new Error(`setup POST /api-keys: ${JSON.stringify(res.body)}`);
      keys.set(id, (res.body as { key: { token: string } }).key.token);
    }
    return keys.get(id)!;
  }
  /** Every row, each as the admin with a key of each level: what the table's kind says it gets. */
  /** Each row's call for a key of `level`, made when it is reached (a call may set up what it needs). */
  async function* planEach(level: Level, refused: boolean): AsyncGenerator<Planned> {
    for (const row of rows()) {
      const kind = RULES[row.action].kind;
      if (accessAllows(level, kind) === !refused) {
        const cell = row.cells.admin;
        const req = await callOf(row, "admin", cell.kind === "only" ? "own" : "any");
        // Operations that take no key (security: []) have no level to check.
        if (refused && req.anonymous) continue;
        yield {
          what: `${row.operation.operationId}${row.when ? ` (${row.when})` : ""} with a ${level} key`,
          req,
          token: await keyOf(req.token ?? admin(), level),
          expect: refused ? { status: 403, code: "insufficient_access" } : { status: "2xx" },
        };
      }
    }
  }
  async function plan(level: Level, refused: boolean): Promise<Planned[]> {
    const planned: Planned[] = [];
    for await (const p of planEach(level, refused)) planned.push(p);
    return planned;
  }

  it(
    "refuses a key below each operation's level with insufficient_access, changing nothing",
    async () => {
      const planned = [...(await plan("read", true)), ...(await plan("write", true))];
      const before = await databaseFingerprint(srv);
      for (const p of planned) await expectAnswer(p);
      expect(await databaseFingerprint(srv)).toBe(before);
      // Every write and admin row refused to a read key, every admin row to a write key.
      expect(planned.filter((p) => p.what.endsWith("read key")).length).toBeGreaterThan(50);
      expect(planned.filter((p) => p.what.endsWith("write key")).length).toBeGreaterThan(10);
    },
    WALK_MS,
  );

  it(
    "allows each operation to a key at or above its level",
    async () => {
      let calls = 0;
      // Each call made just before it is sent: the code-host delivery is signed with the secret its own
      // setup connected, which the code-host operations before it would have replaced.
      for (const level of ACCESS_LEVELS)
        for await (const p of planEach(level, false)) {
          await expectAnswer(p);
          calls++;
        }
      expect(calls).toBeGreaterThan(150);
    },
    WALK_MS,
  );
});

async function expectAnswer(p: Planned): Promise<void> {
  const res = await send(p.token, p.req);
  const code = (res.body as { code?: string } | undefined)?.code;
  const got =
    p.expect.status === "2xx"
      ? {
          status: res.status >= 200 && res.status < 300 ? "2xx" : res.status,
          code: res.status >= 300 ? code : undefined,
        }
      : p.expect.status === 404
        ? { status: res.status, code: res.status === 404 ? undefined : code }
        : { status: res.status, code };
  const want =
    p.expect.status === "2xx"
      ? { status: "2xx", code: undefined }
      : p.expect.status === 404
        ? { status: 404, code: undefined }
        : p.expect;
  expect({ what: p.what, ...got }).toEqual({ what: p.what, ...want });
}
