import type { components } from "@tracker/sdk/schema";
import { Forbidden } from "../http/problem.js";

/**
 * Who may do what: every permission rule of the contract (openapi.yaml, each operation's description, and
 * `ProblemCode`: `admin_required` for an admin-only operation, `forbidden` for any other rule), one entry per
 * action. Routes and services ask {@link authorize} (or {@link can}) and never compare roles themselves;
 * `rules/operations.ts` names the action of every operation, and the pipeline's `authorize` step asks the
 * part of the rule that needs no subject before the handler runs. Seeing comes first: what the caller may
 * not see is 404 (`rules/visibility.ts`), whatever they could have done to it.
 */

type MemberRole = components["schemas"]["MemberRole"];
type ApiKeyScope = components["schemas"]["ApiKeyScope"];
type ApiKeyAccess = components["schemas"]["ApiKeyAccess"];

/**
 * The caller as the rules read them: the key's owner and the key (its scope and its access level), and
 * their role in the workspace the request acts in (`null` for the operations outside one). A request's
 * scope is one.
 *
 * The access level (`read`, `write` or `admin`, of an API key or an OAuth access token) is checked first
 * against the action's {@link Kind}, on every operation, since every operation names its action
 * (`rules/operations.ts`): a `read` key cannot write, whatever its owner's role. The level only narrows
 * what the role allows.
 */
export interface Actor {
  caller: { userId: string; keyScope: ApiKeyScope; access: ApiKeyAccess };
  workspace: { role: MemberRole } | null;
}

/**
 * What an action does, and so the access level it needs (the contract's "Access levels and expiry"):
 * read (changes nothing), write (the changes of everyday work), or admin (administering the workspace,
 * its members and the caller's credentials).
 */
export type Kind = "read" | "write" | "admin";

/** The access levels in order: each allows the kinds up to its own. */
export const ACCESS_LEVELS = ["read", "write", "admin"] as const satisfies readonly ApiKeyAccess[];

/** Whether a key of `access` may do an action of `kind`. */
export function accessAllows(access: ApiKeyAccess, kind: Kind): boolean {
  return ACCESS_LEVELS.indexOf(access) >= ACCESS_LEVELS.indexOf(kind);
}

export const ROLES = ["admin", "member", "guest"] as const satisfies readonly MemberRole[];

/** Who else may, for a given subject: `who` says it for the table, `holds` decides it. */
export interface Exception<S> {
  who: string;
  /** The roles it applies to; every role when absent. */
  roles?: readonly MemberRole[];
  holds: (actor: Actor, subject: S) => boolean;
}

export interface Rule<S> {
  kind: Kind;
  /** Roles allowed whatever the subject; `anyone`: any key, also outside a workspace. */
  roles: readonly MemberRole[] | "anyone";
  /** Allowed besides, for some subjects: the author of a comment, the owner of a personal space, ... */
  also?: readonly Exception<S>[];
  /** Limited to what the caller sees (`rules/visibility.ts`): the rest is 404 to them, as if it did not exist. */
  seen?: true;
  /** Only an account key may: a workspace key reaches one workspace and must not widen its reach. */
  accountKeyOnly?: true;
  /** The contract's 403 code when refused, and its detail. */
  refusal: "admin_required" | "forbidden";
  detail: string;
}

const rule = <S = never>(r: Rule<S>) => r;

const themself = {
  who: "themself",
  holds: (a: Actor, s: { userId: string }) => s.userId === a.caller.userId,
};
const lead = {
  who: "its lead",
  holds: (a: Actor, p: { leadId: string | null }) => p.leadId === a.caller.userId,
};
const membersOfItsTeams = {
  who: "members of its teams",
  roles: ["member"],
  holds: (_: Actor, p: { callerInTeams: boolean }) => p.callerInTeams,
} as const;

const EVERY_ROLE = ROLES;
const NOT_GUESTS = ["admin", "member"] as const;
const ADMINS = ["admin"] as const;
/** Allowed to anyone the rule reaches: nothing to refuse, so no detail. */
const OPEN = { refusal: "forbidden", detail: "" } as const;
/** An action of the workspace's administration: admins only, 403 `admin_required` for anyone else. */
const adminOnly = (detail: string) =>
  rule({ kind: "admin", roles: ADMINS, refusal: "admin_required", detail });
/** A change guests may not make: 403 `forbidden` for them. */
const notGuests = (detail: string) =>
  rule({ kind: "write", roles: NOT_GUESTS, refusal: "forbidden", detail });
/**
 * Admins (or `roles`) always, and some others on some subjects (`also`), on what the caller sees; refused
 * with `refusal` (`forbidden` unless said).
 */
const adminsAnd = <S>(
  also: readonly Exception<S>[],
  detail: string,
  more: { refusal?: "admin_required"; roles?: readonly MemberRole[] } = {},
) =>
  rule<S>({
    kind: "write",
    roles: more.roles ?? ADMINS,
    seen: true,
    also,
    refusal: more.refusal ?? "forbidden",
    detail,
  });
const author = {
  who: "its author",
  holds: (a: Actor, c: { authorId: string | null }) => c.authorId === a.caller.userId,
};
const creator = {
  who: "its creator",
  holds: (a: Actor, d: { creatorId: string | null }) => d.creatorId === a.caller.userId,
};
/** Allowed to every role; `seen`: on what the caller sees. */
const everyone = (kind: Kind, seen?: "seen") =>
  rule({ kind, roles: EVERY_ROLE, ...(seen ? { seen: true as const } : {}), ...OPEN });

/**
 * Every action. Reads and writes whose only limit is what the caller sees are `EVERY_ROLE` and `seen`: the
 * visibility rule answers 404 for the rest.
 */
export const RULES = {
  "server.health": rule({ kind: "read", roles: "anyone", ...OPEN }),
  "invite.accept": rule({ kind: "write", roles: "anyone", ...OPEN }),
  /** Signing in needs no caller; reading and ending one's own sessions, any signed-in person or key. */
  "session.signIn": rule({ kind: "write", roles: "anyone", ...OPEN }),
  "session.read": rule({ kind: "read", roles: "anyone", ...OPEN }),
  "session.end": rule({ kind: "write", roles: "anyone", ...OPEN }),
  "session.resetPassword": rule({ kind: "write", roles: "anyone", ...OPEN }),
  /**
   * A person's own account, outside any workspace: their name (`write`), their password (a credential:
   * `admin`, as making keys is), the apps they authorised (listing `read`, revoking a credential `admin`).
   */
  "account.update": rule({ kind: "write", roles: "anyone", ...OPEN }),
  "account.password": rule({ kind: "admin", roles: "anyone", ...OPEN }),
  "oauthGrant.list": rule({ kind: "read", roles: "anyone", ...OPEN }),
  "oauthGrant.revoke": rule({ kind: "admin", roles: "anyone", ...OPEN }),
  "member.passwordReset": adminOnly("Only workspace admins may make password reset links."),
  "workspace.list": rule({ kind: "read", roles: "anyone", ...OPEN }),
  "workspace.create": rule({
    kind: "admin",
    roles: "anyone",
    accountKeyOnly: true,
    refusal: "forbidden",
    detail: "A workspace key reaches only its own workspace; create workspaces with an account key.",
  }),
  /** The workspace named must be one the key reaches: else 403 `workspace_forbidden`, as for any operation. */
  "workspace.activate": rule({ kind: "write", roles: "anyone", ...OPEN }),
  "workspace.read": everyone("read"),
  "workspace.update": adminOnly("Only workspace admins may change the workspace."),
  /** Moving a project or initiative into a workspace: asked of the caller's role there. */
  "workspace.moveInto": adminOnly("Only admins of the target workspace may move things into it."),
  "invite.list": rule({
    kind: "read",
    roles: NOT_GUESTS,
    refusal: "forbidden",
    detail: "Guests may not see the workspace's invites.",
  }),
  "invite.manage": adminOnly("Only workspace admins may invite people or revoke invites."),
  "user.list": everyone("read"),
  "member.update": adminOnly("Only workspace admins may change member roles."),
  /** Leaving the workspace too: it administers membership, so it needs an `admin` key. */
  "member.remove": rule<{ userId: string }>({
    kind: "admin",
    roles: ADMINS,
    also: [themself],
    refusal: "admin_required",
    detail: "Only workspace admins may remove other members.",
  }),
  /**
   * An API key is its owner's own: every key lists, makes and deletes only its owner's keys. Making or
   * revoking a credential administers the account: `admin` access, so no key mints a wider one.
   */
  "apiKey.list": everyone("read"),
  "apiKey.manage": rule({ ...everyone("write"), kind: "admin" }),
  "apiKey.createAccountKey": rule({
    kind: "admin",
    roles: EVERY_ROLE,
    accountKeyOnly: true,
    refusal: "forbidden",
    detail: "A workspace key cannot create an account key; use an account key.",
  }),
  "team.read": everyone("read", "seen"),
  "team.create": notGuests("Guests may not create teams."),
  "team.update": adminsAnd<{ personal: boolean; ownerId: string | null }>(
    [
      {
        who: "the owner of a personal space",
        holds: (a, team) => team.personal && team.ownerId === a.caller.userId,
      },
    ],
    "Only workspace admins may change a team (the owner may change their personal space).",
    { refusal: "admin_required" },
  ),
  "team.delete": adminOnly("Only workspace admins may delete a team."),
  /** Guests see only their own teams, so joining another is 404 to them. */
  "team.join": everyone("write", "seen"),
  /** A team's members, workflow states and workflow rules. */
  "team.manage": adminsAnd<{ callerInTeam: boolean }>(
    [{ who: "members of the team", roles: ["member"], holds: (_, team) => team.callerInTeam }],
    "Only workspace admins and members of the team may manage its members, workflow states and rules.",
  ),
  "team.removeMember": adminsAnd<{ userId: string }>(
    [themself],
    "Only workspace admins may remove other people from a team.",
  ),
  "issue.read": everyone("read", "seen"),
  "issue.write": everyone("write", "seen"),
  /** Import mode (openapi.yaml, `importIssues`): original people and times, placeholders, sources. */
  "issue.import": adminOnly("Only workspace admins may import issues with their original people and times."),
  /** Following an issue is the caller's own, on what they see; notifications are their own. */
  "issue.subscribe": everyone("write", "seen"),
  /** Agents (openapi.yaml, "Agents"): app users an admin adds; their sessions on what the caller sees. */
  "agent.read": everyone("read"),
  "agent.create": adminOnly("Only workspace admins may add agents."),
  "agentSession.read": everyone("read", "seen"),
  /** People who see the issue write to its agent; only the session's agent reports in it. */
  "agentSession.message": everyone("write", "seen"),
  "agentSession.report": adminsAnd<{ agentId: string }>(
    [
      {
        who: "the session's agent",
        holds: (a: Actor, s: { agentId: string }) => s.agentId === a.caller.userId,
      },
    ],
    "Only the session's agent may post its activities.",
    { roles: [] },
  ),
  "agentSession.stop": rule({
    kind: "write",
    roles: NOT_GUESTS,
    seen: true,
    refusal: "forbidden",
    detail: "Guests may not stop an agent's session.",
  }),
  "notification.read": everyone("read"),
  "notification.update": everyone("write"),
  /** How the person is told of notifications: theirs, for every workspace of theirs. */
  "notificationSettings.read": rule({ kind: "read", roles: "anyone", ...OPEN }),
  "notificationSettings.update": rule({ kind: "write", roles: "anyone", ...OPEN }),
  "issue.delete": adminsAnd([creator], "Only the issue's creator or a workspace admin may delete it."),
  "comment.update": adminsAnd([author], "Only the author of a comment may edit it.", { roles: [] }),
  "comment.delete": adminsAnd([author], "Only the comment's author or a workspace admin may delete it."),
  /** Uploading is changing the issue (`issue.write`); downloading needs the URL's signature, not a role. */
  "attachment.download": rule({ kind: "read", roles: "anyone", ...OPEN }),
  "attachment.delete": adminsAnd(
    [
      {
        who: "its uploader",
        holds: (a: Actor, f: { uploaderId: string | null }) => f.uploaderId === a.caller.userId,
      },
    ],
    "Only the attachment's uploader or a workspace admin may delete it.",
  ),
  "project.read": everyone("read", "seen"),
  /** Guests reach only their teams, so they create and change projects of those alone. */
  "project.write": everyone("write", "seen"),
  "project.move": adminOnly("Only workspace admins may move projects."),
  "project.manageMembers": adminsAnd<{ leadId: string | null; callerInTeams: boolean }>(
    [lead, membersOfItsTeams],
    "Only admins, the project's lead and members of its teams may change its members.",
  ),
  "project.removeMember": adminsAnd<{ userId: string; leadId: string | null; callerInTeams: boolean }>(
    [themself, lead, membersOfItsTeams],
    "Only admins, the project's lead and members of its teams may change its members.",
  ),
  "initiative.read": everyone("read", "seen"),
  "initiative.write": notGuests("Guests may not create or change initiatives."),
  "initiative.move": adminOnly("Only workspace admins may move initiatives."),
  "cycle.read": everyone("read", "seen"),
  "cycle.write": notGuests("Guests may not create, change or delete cycles."),
  "label.read": everyone("read"),
  /** Usage counts across every team, personal spaces included: a read, for admins. */
  "label.counts": rule({ ...adminOnly("Only workspace admins may see label counts."), kind: "read" }),
  "label.write": notGuests("Guests may not create, change, merge or delete labels."),
  "document.read": everyone("read", "seen"),
  "document.write": everyone("write", "seen"),
  "document.delete": adminsAnd([creator], "Only the document's creator or a workspace admin may delete it."),
  "update.read": everyone("read", "seen"),
  "update.create": notGuests("Guests may not post status updates."),
  /** Saved views and view defaults are their owner's own (the workspace's defaults are everyone's to read). */
  "view.list": everyone("read"),
  "view.own": everyone("write"),
  "view.workspaceDefault": adminOnly("Only workspace admins may set or remove workspace view defaults."),
  /** The code-host integration: connecting a workspace and replacing or forgetting its secret. */
  "codehost.manage": adminOnly("Only workspace admins may connect or disconnect the code host."),
  /**
   * A code host's delivery: it takes no key (GitHub cannot send one) and is authenticated by its signature,
   * the HMAC of the body with the workspace's secret (modules/codehost/codehost.service.ts).
   */
  "codehost.deliver": rule({ kind: "write", roles: "anyone", ...OPEN }),
  /** Single sign-on: which provider vouches for the workspace's people is the workspace's administration. */
  "sso.read": rule({
    ...adminOnly("Only workspace admins may see single sign-on's settings."),
    kind: "read",
  }),
  "sso.manage": adminOnly("Only workspace admins may change single sign-on."),
  /** Outbound webhooks: their URLs, event filters and delivery logs are the workspace's administration. */
  "webhook.read": rule({
    ...adminOnly("Only workspace admins may see webhooks and their deliveries."),
    kind: "read",
  }),
  "webhook.manage": adminOnly("Only workspace admins may register, change, delete or redeliver webhooks."),
  "digest.read": everyone("read", "seen"),
  "events.read": everyone("read", "seen"),
  "dev.reseed": adminOnly("Only workspace admins may reseed demo data."),
};

export type Action = keyof typeof RULES;
type SubjectOf<A extends Action> = (typeof RULES)[A] extends {
  also?: readonly { holds: (a: Actor, s: infer S) => boolean }[];
}
  ? S
  : never;
/** The subject an action's rule needs, when it has an `also`: none otherwise. */
type SubjectArgs<A extends Action> = [SubjectOf<A>] extends [never] ? [] : [subject: SubjectOf<A>];

/** Whether the role (or the key) allows the action whatever the subject. */
function allowedOutright(actor: Actor, r: Rule<unknown>): boolean {
  if (r.accountKeyOnly && actor.caller.keyScope !== "account") return false;
  if (r.roles === "anyone") return true;
  return actor.workspace !== null && r.roles.includes(actor.workspace.role);
}

/** Whether `actor` may do `action` (to `subject`, for the rules that depend on it). */
export function can<A extends Action>(actor: Actor, action: A, ...[subject]: SubjectArgs<A>): boolean {
  const r = RULES[action] as Rule<unknown>;
  if (!accessAllows(actor.caller.access, r.kind)) return false;
  if (allowedOutright(actor, r)) return true;
  if (r.accountKeyOnly && actor.caller.keyScope !== "account") return false;
  if (subject === undefined || !actor.workspace) return false;
  return exceptionsFor(r, actor.workspace.role).some((e) => e.holds(actor, subject));
}

/** The exceptions of a rule that apply to a role. */
export function exceptionsFor<S>(r: Rule<S>, role: MemberRole): readonly Exception<S>[] {
  return (r.also ?? []).filter((e) => !e.roles || e.roles.includes(role));
}

/** {@link can}, or the contract's 403 (`admin_required` or `forbidden`) for the action. */
export function authorize<A extends Action>(actor: Actor, action: A, ...subject: SubjectArgs<A>): void {
  refuseAccess(actor, action);
  if (!can(actor, action, ...subject)) refuse(action);
}

/**
 * The part of the action's rule that needs no subject, asked before the handler runs: refused here only
 * when no subject could change the answer (the role is not allowed and the rule has no `also`, or the
 * key may not). The handler asks {@link authorize} with the subject for the rest.
 */
export function authorizeAttempt(actor: Actor, action: Action): void {
  refuseAccess(actor, action);
  const r = RULES[action] as Rule<unknown>;
  if (allowedOutright(actor, r)) return;
  if (actor.workspace && exceptionsFor(r, actor.workspace.role).length) return;
  refuse(action);
}

/** 403 `insufficient_access` when the key's access level is below what the action needs. */
function refuseAccess(actor: Actor, action: Action): void {
  const { kind } = RULES[action] as Rule<unknown>;
  if (!accessAllows(actor.caller.access, kind))
    throw new Forbidden(
      "insufficient_access",
      `This needs ${kind} access; the key (or token) has ${actor.caller.access} access.`,
    );
}

function refuse(action: Action): never {
  const r = RULES[action] as Rule<unknown>;
  throw new Forbidden(r.refusal, r.detail);
}

/**
 * Demoting or removing `current` with `admins` admins in the workspace would leave it none (the contract:
 * 409 `last_admin`). `next` is the new role, `null` for a removal.
 */
export function leavesNoAdmin(current: MemberRole, next: MemberRole | null, admins: number): boolean {
  return current === "admin" && next !== "admin" && admins <= 1;
}
