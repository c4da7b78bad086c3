/**
 * What one request of each operation sends in the bench (operations.ts), in the order they run: reads first,
 * then writes, each after whatever it needs was made; the ones that consume their target last in their
 * group. Writes act on issues made for the bench run (`fresh`), which a later run with `--reuse` removes
 * with every issue created after the seed, so the seeded issues the read cases load stay as seeded.
 */
import { createHash, createHmac, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { OperationRecipe, OperationRequest } from "./operations.js";
import type { Seeded } from "./seed.js";

/** Operations that are not loaded, and why. */
export const NOT_LOADED: Record<string, string> = {
  streamEvents: "a stream, not a request: it has its own case (Live events, below)",
  reseedDev:
    "development only (the bench's server runs in production, where it is not mounted); it replaces a workspace's data",
};

interface Ctx {
  base: string;
  token: string;
  seeded: Seeded;
}

interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: answers are the contract's shapes, read a field at a time
  json: Record<string, any>;
  headers: Headers;
}

/** Targets made for an operation that consumes one per request: the probe's and the leg's. */
const TARGETS = 120;
/** Users made by invitation for the member, session and password operations. */
const USERS = 24;
const PASSWORD = "bench-password-0123";

function rotate<T>(items: T[]): () => T {
  let i = 0;
  return () => items[i++ % items.length]!;
}

/** A list consumed one item per request; the leg's amount is what is left after the probe. */
function queue<T>() {
  const items: T[] = [];
  return {
    items,
    take: () => items.shift()!,
    left: () => items.length,
    fill: (more: T[]) => {
      items.length = 0;
      items.push(...more);
    },
  };
}

/** Local endpoints the bench's writes point at: a webhook receiver and an OpenID provider's discovery. */
export async function localEndpoints(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    if (req.url === "/.well-known/openid-configuration") {
      const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ["code"],
          subject_types_supported: ["public"],
          id_token_signing_alg_values_supported: ["RS256"],
        }),
      );
      return;
    }
    res.end("ok");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

export function operationRecipes(
  ctx: Ctx,
  local: string,
): { recipes: Record<string, OperationRecipe>; setup: () => Promise<void> } {
  const { seeded } = ctx;
  const run = randomUUID().slice(0, 8);
  let n = 0;
  const next = () => ++n;
  const team = rotate(seeded.teamKeys);
  const ident = rotate(seeded.identifiers);
  const [teamA, teamB, teamC] = seeded.teamKeys as [string, string, string];

  async function api(method: string, path: string, body?: unknown, headers?: Record<string, string>) {
    const res = await fetch(`${ctx.base}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${ctx.token}`,
        "x-service-workspace": seeded.workspaceSlug,
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const answer: Answer = { status: res.status, json: text ? JSON.parse(text) : {}, headers: res.headers };
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 200)}`);
    return answer;
  }
  const many = <T>(count: number, make: (i: number) => Promise<T>) =>
    Promise.all(Array.from({ length: count }, (_, i) => make(i)));

  /** Issues made for this run in `teamKey`, by batches of 100. */
  async function freshIssues(count: number, teamKey = teamA): Promise<{ identifier: string; id: string }[]> {
    const out: { identifier: string; id: string }[] = [];
    for (let made = 0; made < count; made += 100) {
      const size = Math.min(100, count - made);
      const a = await api("POST", "/issues/batch", {
        issues: Array.from({ length: size }, (_, i) => ({ team: teamKey, title: `Ops ${run} ${made + i}` })),
      });
      out.push(...(a.json.issues as { identifier: string; id: string }[]));
    }
    return out;
  }

  // What the reads and writes share, made by the first recipe's preparation.
  const s = {
    fresh: [] as string[],
    projects: [] as string[],
    cycles: [] as string[],
    labels: [] as string[],
    users: [] as string[],
    workspaceName: "",
    comments: [] as { identifier: string; id: string }[],
    /** Issues archived and restored by their own recipes. */
    archivable: [] as string[],
    initiatives: [] as string[],
    documents: [] as string[],
    views: [] as string[],
    webhooks: [] as string[],
    deliveries: [] as { webhook: string; id: string }[],
    attachments: [] as string[],
    /** Users made by invitation: email, id. */
    invited: [] as { email: string; id: string }[],
    states: new Map<string, string[]>(),
    /** The seeded teams with cycles enabled. */
    cycleTeams: [] as string[],
  };
  const freshIdent = () => s.fresh[next() % s.fresh.length]!;
  const archivable = async (fresh: boolean) => {
    if (fresh || !s.archivable.length)
      s.archivable = (await freshIssues(100, teamA)).map((x) => x.identifier);
  };
  const archivedNext = () => ({ params: { identifier: s.archivable[next() % s.archivable.length]! } });
  const byTeam = (key: string) => s.states.get(key) ?? [];

  const invite = async (email: string) => {
    const a = await api("POST", "/invites", { email });
    return { id: a.json.invite.id as string, token: String(a.json.invite.url).split("/").at(-1)! };
  };
  const signIn = async (email: string) => {
    const res = await fetch(`${ctx.base}/api/v1/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`sign-in answered ${res.status}`);
    return /tracker_session=[^;]+/.exec(res.headers.get("set-cookie") ?? "")![0];
  };
  const upload = async (identifier: string, filename: string) => {
    const res = await fetch(`${ctx.base}/api/v1/issues/${identifier}/attachments?filename=${filename}`, {
      method: "POST",
      headers: { authorization: `Bearer ${ctx.token}`, "content-type": "application/octet-stream" },
      body: `${filename} of the bench\n`,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`upload answered ${res.status}: ${text.slice(0, 200)}`);
    return (JSON.parse(text) as { attachment: { id: string; url: string } }).attachment;
  };
  const cookieHeaders = (cookie: string) => ({ cookie, "x-requested-with": "XMLHttpRequest" });

  /** A recipe that consumes one target a request: `make` builds them before the probe. */
  const consuming = (make: () => Promise<OperationRequest[]>): OperationRecipe => {
    const q = queue<OperationRequest>();
    return {
      prepare: async () => q.fill(await make()),
      next: () => q.take(),
      amount: () => q.left(),
    };
  };

  const r: Record<string, OperationRecipe> = {
    // Reads, of what the seed made.
    getHealth: { next: () => ({}) },
  };
  /** What the reads and writes share: issues made for the run, the seed's projects, cycles, labels, users. */
  const setup = async () => {
    // The bench's workspace active for its key, should an earlier run have stopped with another one active.
    await api("PUT", "/workspaces/active", { workspace: seeded.workspaceSlug });
    s.fresh = (await freshIssues(200)).map((i) => i.identifier);
    s.projects = (await api("GET", "/projects?limit=100")).json.projects.map((p: { id: string }) => p.id);
    for (const key of seeded.teamKeys.slice(0, 4))
      s.cycles.push(
        ...(await api("GET", `/cycles?team=${key}`)).json.cycles.map((c: { id: string }) => c.id),
      );
    s.labels = (await api("GET", "/labels")).json.labels.map((l: { id: string }) => l.id);
    s.users = (await api("GET", "/users")).json.users.map((u: { id: string }) => u.id);
    for (const t of (await api("GET", "/teams")).json.teams as {
      key: string;
      cyclesEnabled: boolean;
      states: { id: string }[];
    }[]) {
      s.states.set(
        t.key,
        t.states.map((st) => st.id),
      );
      if (t.cyclesEnabled && seeded.teamKeys.includes(t.key)) s.cycleTeams.push(t.key);
    }
    // The seed's cycles belong to teams that have them off: cycles are created in a team of the run's.
    if (!s.cycleTeams.length) {
      const key = opsKey(run, 7777);
      await api("POST", "/teams", { name: `Ops ${run} cycles`, key, cyclesEnabled: true });
      s.cycleTeams.push(key);
    }
    const ws = (await api("GET", "/workspaces")).json.workspaces as { id: string; name: string }[];
    s.workspaceName = ws.find((w) => w.id === seeded.workspaceId)?.name ?? "Bench";
  };
  Object.assign(r, {
    listWorkspaces: { next: () => ({}) },
    listUsers: { next: () => ({}) },
    listApiKeys: { next: () => ({}) },
    listTeams: { next: () => ({}) },
    listAllTeams: { next: () => ({}) },
    listTeamMembers: { next: () => ({ params: { key: team() } }) },
    listWorkflows: { next: () => ({ params: { key: team() } }) },
    listInvites: { next: () => ({}) },
    listIssues: { next: () => ({ query: `team=${team()}` }) },
    countIssues: { next: () => ({ query: `team=${team()}&groupBy=assignee` }) },
    getIssue: { next: () => ({ params: { identifier: ident() } }) },
    getIssuePageData: { next: () => ({ params: { identifier: ident() } }) },
    getIssueHistory: { next: () => ({ params: { identifier: ident() } }) },
    listIssueRelations: { next: () => ({ params: { identifier: ident() } }) },
    listComments: { next: () => ({ params: { identifier: ident() } }) },
    listAttachments: { next: () => ({ params: { identifier: ident() } }) },
    listProjects: { next: () => ({}) },
    getProject: { next: () => ({ params: { id: s.projects[next() % s.projects.length]! } }) },
    getProjectPageData: { next: () => ({ params: { id: s.projects[next() % s.projects.length]! } }) },
    listProjectMembers: { next: () => ({ params: { id: s.projects[next() % s.projects.length]! } }) },
    listCycles: { next: () => ({ query: `team=${team()}` }) },
    listLabels: { next: () => ({}) },
    listDocuments: { next: () => ({}) },
    listUpdates: { next: () => ({ query: `team=${team()}` }) },
    getUpdateCandidates: { next: () => ({ query: `team=${team()}` }) },
    listViews: { next: () => ({}) },
    listViewDefaults: { next: () => ({}) },
    getDigest: { next: () => ({}) },
    listNotifications: { next: () => ({}) },
    markNotificationsRead: { next: () => ({ body: { read: true } }) },
    listInitiatives: { next: () => ({}) },
    getCodehost: { next: () => ({}) },
    getSsoSettings: { next: () => ({}) },
    listWebhooks: { next: () => ({}) },

    // Issues.
    createIssue: { next: () => ({ body: { team: team(), title: `Ops ${run} ${next()}`, priority: n % 5 } }) },
    createIssues: {
      next: () => ({
        body: {
          issues: Array.from({ length: 100 }, (_, i) => ({
            team: teamA,
            title: `Ops ${run} ${next()}.${i}`,
          })),
        },
      }),
    },
    updateIssue: {
      next: () => ({ params: { identifier: freshIdent() }, body: { priority: n % 5, estimate: n % 3 } }),
    },
    moveIssues: (() => {
      let pool: string[] = [];
      let i = 0;
      return {
        prepare: async () => {
          pool = (await freshIssues(100, teamA)).map((x) => x.identifier);
        },
        // Each issue back and forth between two teams; its first identifier keeps resolving (a redirect).
        next: () => {
          const k = i++;
          return {
            body: {
              identifiers: [pool[k % pool.length]!],
              team: Math.floor(k / pool.length) % 2 ? teamC : teamB,
            },
          };
        },
      };
    })(),
    subscribeIssue: { next: () => ({ params: { identifier: freshIdent() } }) },
    getIssueSubscription: { next: () => ({ params: { identifier: freshIdent() } }) },
    // Archive and unarchive take issues of their own (an archived issue leaves the lists the other recipes
    // read); each answers 200 again for an issue already so, as the contract says.
    // Archive takes 100 fresh issues; unarchive restores the same ones (or fresh ones when run alone).
    archiveIssue: { prepare: () => archivable(true), next: archivedNext },
    unarchiveIssue: { prepare: () => archivable(false), next: archivedNext },
    unsubscribeIssue: { next: () => ({ params: { identifier: freshIdent() } }) },
    createIssueLink: {
      next: () => ({
        params: { identifier: freshIdent() },
        body: { url: `https://example.com/ops/${run}/${next()}` },
      }),
    },
    createIssueRelation: (() => {
      let pool: string[] = [];
      let i = 0;
      return {
        prepare: async () => {
          pool = (await freshIssues(200)).map((x) => x.identifier);
        },
        // Each unordered pair of the pool once: a relation between the same two issues twice is a conflict.
        next: () => {
          const k = i++;
          const a = k % pool.length;
          const b = (a + 1 + (Math.floor(k / pool.length) % (pool.length - 1))) % pool.length;
          return { params: { identifier: pool[a]! }, body: { issue: pool[b]!, type: "related" } };
        },
      };
    })(),
    createComment: {
      next: () => ({
        params: { identifier: freshIdent() },
        body: { body: `A comment of the bench, ${next()}.` },
      }),
    },
    updateComment: {
      prepare: async () => {
        s.comments = await many(40, async () => {
          const identifier = freshIdent();
          const a = await api("POST", `/issues/${identifier}/comments`, { body: "To be edited." });
          return { identifier, id: a.json.comment.id as string };
        });
      },
      next: () => {
        const c = s.comments[next() % s.comments.length]!;
        return { params: { identifier: c.identifier, commentId: c.id }, body: { body: `Edited ${n}.` } };
      },
    },
    listCommentRevisions: {
      // Comments with one edit each, so each has a revision to list.
      prepare: async () => {
        if (!s.comments.length) await r.updateComment!.prepare!();
        for (const c of s.comments)
          await api("PATCH", `/issues/${c.identifier}/comments/${c.id}`, { body: "Edited once." });
      },
      next: () => {
        const c = s.comments[next() % s.comments.length]!;
        return { params: { identifier: c.identifier, commentId: c.id } };
      },
    },
    uploadAttachment: {
      next: () => ({
        params: { identifier: freshIdent() },
        query: `filename=ops-${next()}.txt`,
        body: `Attachment ${n} of the bench.\n`.repeat(20),
        contentType: "application/octet-stream",
      }),
    },
    downloadAttachment: {
      prepare: async () => {
        s.attachments = await many(8, async (i) => {
          const a = await upload(s.fresh[0]!, `download-${i}.txt`);
          const url = new URL(a.url, ctx.base);
          return url.pathname + url.search;
        });
      },
      auth: false,
      next: () => ({ path: s.attachments[next() % s.attachments.length]! }),
    },

    // Projects, initiatives, cycles, labels, documents, updates, views.
    createProject: { next: () => ({ body: { name: `Ops ${run} ${next()}`, teams: [team()] } }) },
    updateProject: {
      next: () => ({
        params: { id: s.projects[next() % s.projects.length]! },
        body: { description: `Edited ${n}` },
      }),
    },
    addProjectMember: {
      next: () => ({
        params: { id: s.projects[next() % s.projects.length]! },
        body: { user: s.users[n % s.users.length]! },
      }),
    },
    createInitiative: {
      next: () => ({ body: { name: `Ops ${run} ${next()}` } }),
    },
    getInitiative: {
      prepare: async () => {
        const a = await api("GET", "/initiatives?limit=100");
        s.initiatives = (a.json.initiatives as { id: string }[]).map((i) => i.id);
      },
      next: () => ({ params: { id: s.initiatives[next() % s.initiatives.length]! } }),
    },
    getInitiativePageData: {
      next: () => ({ params: { id: s.initiatives[next() % s.initiatives.length]! } }),
    },
    updateInitiative: {
      next: () => ({
        params: { id: s.initiatives[next() % s.initiatives.length]! },
        body: { description: `Edited ${n}` },
      }),
    },
    createCycle: {
      next: () => ({ body: { team: s.cycleTeams[next() % s.cycleTeams.length], rollover: false } }),
    },
    updateCycle: {
      next: () => ({ params: { id: s.cycles[next() % s.cycles.length]! }, body: { name: `Cycle ${n % 7}` } }),
    },
    createLabel: { next: () => ({ body: { name: `ops-${run}-${next()}` } }) },
    updateLabel: {
      next: () => ({
        params: { id: s.labels[next() % s.labels.length]! },
        body: { description: `Edited ${n % 5}` },
      }),
    },
    createDocument: {
      next: () => ({
        body: { title: `Ops ${run} ${next()}`, team: team(), content: "A document of the bench." },
      }),
    },
    getDocument: {
      prepare: async () => {
        const a = await api("GET", "/documents?limit=100");
        s.documents = (a.json.documents as { id: string }[]).map((d) => d.id);
      },
      next: () => ({ params: { id: s.documents[next() % s.documents.length]! } }),
    },
    updateDocument: {
      next: () => ({
        params: { id: s.documents[next() % s.documents.length]! },
        body: { content: `Edited ${n}.` },
      }),
    },
    createUpdate: {
      next: () => ({
        body: { title: `Ops ${run} ${next()}`, content: "An update of the bench.", team: team() },
      }),
    },
    createView: { next: () => ({ body: { name: `Ops ${run} ${next()}`, filters: { team: team() } } }) },
    updateView: {
      prepare: async () => {
        const a = await api("GET", "/views");
        s.views = (a.json.views as { id: string }[]).map((v) => v.id);
      },
      next: () => ({ params: { id: s.views[next() % s.views.length]! }, body: { favorite: n % 2 === 0 } }),
    },
    putViewDefault: {
      next: () => ({ body: { viewKey: `ops:${run}:${next() % 50}`, sort: "-priority" } }),
    },

    // Teams and workflows.
    createTeam: {
      amount: () => 20,
      next: () => ({ body: { name: `Ops ${run} ${next()}`, key: opsKey(run, n) } }),
    },
    updateTeam: { next: () => ({ params: { key: team() }, body: { cycleLengthWeeks: 2 } }) },
    joinTeam: { next: () => ({ params: { key: team() } }) },
    upsertWorkflow: {
      next: () => {
        const key = team();
        const states = byTeam(key);
        const triggers = ["pr_opened", "pr_draft", "pr_review_requested", "pr_merged", "pr_closed"];
        return {
          params: { key },
          body: { trigger: triggers[next() % triggers.length], targetStateId: states[n % states.length] },
        };
      },
    },

    // The workspace, its members, keys and sessions.
    updateWorkspace: { next: () => ({ body: { name: s.workspaceName } }) },
    // A new workspace becomes the key's active one: the next operation makes the bench's active again.
    createWorkspace: { amount: () => 20, next: () => ({ body: { name: `Ops ${run} ${next()}` } }) },
    setActiveWorkspace: { next: () => ({ body: { workspace: seeded.workspaceSlug } }) },
    createInvite: { next: () => ({ body: { email: `ops-${run}-${next()}@bench.test` } }) },
    acceptInvite: {
      ...consuming(async () =>
        many(USERS, async (i) => {
          const email = `ops-${run}-user-${i}@bench.test`;
          const { token } = await invite(email);
          return { body: { token, name: `Ops user ${i}`, password: PASSWORD } };
        }),
      ),
      auth: false,
    },
    signIn: {
      prepare: async () => {
        const a = await api("GET", "/users");
        s.invited = (a.json.users as { id: string; email?: string }[])
          .filter((u) => u.email?.startsWith(`ops-${run}-user-`))
          .map((u) => ({ id: u.id, email: u.email! }));
        if (!s.invited.length) throw new Error("no invited user to sign in (acceptInvite did not run)");
      },
      auth: false,
      next: () => ({ body: { email: s.invited[next() % s.invited.length]!.email, password: PASSWORD } }),
    },
    getSession: (() => {
      let cookies: string[] = [];
      return {
        prepare: async () => {
          cookies = await many(4, (i) => signIn(s.invited[i % s.invited.length]!.email));
        },
        auth: false,
        next: () => ({ headers: cookieHeaders(cookies[next() % cookies.length]!) }),
      } satisfies OperationRecipe;
    })(),
    signOut: {
      ...consuming(async () =>
        many(40, async (i) => ({
          headers: cookieHeaders(await signIn(s.invited[i % s.invited.length]!.email)),
        })),
      ),
      auth: false,
    },
    signOutEverywhere: {
      ...consuming(async () =>
        many(s.invited.length, async (i) => ({ headers: cookieHeaders(await signIn(s.invited[i]!.email)) })),
      ),
      auth: false,
    },
    createPasswordReset: { next: () => ({ params: { userId: s.invited[next() % s.invited.length]!.id } }) },
    resetPassword: {
      ...consuming(async () =>
        many(s.invited.length, async (i) => {
          const a = await api("POST", `/members/${s.invited[i]!.id}/password-reset`);
          return { body: { token: String(a.json.reset.url).split("/").at(-1), password: PASSWORD } };
        }),
      ),
      auth: false,
    },
    updateMember: {
      next: () => ({
        params: { userId: s.invited[next() % s.invited.length]!.id },
        body: { role: "member" },
      }),
    },
    createApiKey: { next: () => ({ body: { name: `ops ${run} ${next()}` } }) },

    // Outside integrations: SSO against a local provider, the code host, webhooks to a local receiver.
    putSsoSettings: {
      once: "sets the workspace's one provider (its discovery document fetched each time): once",
      next: () => ({
        body: { issuer: local, clientId: "bench", clientSecret: "bench-secret", enabled: false },
      }),
    },
    connectCodehost: {
      once: "sets the workspace's one connection: once",
      next: () => ({ body: { provider: "github", secret: `bench-secret-${run}-0123456789` } }),
    },
    receiveGithubDelivery: {
      auth: false,
      next: () => {
        const body = JSON.stringify({ zen: "Keep it logically awesome.", hook_id: next() });
        const signature = createHmac("sha256", `bench-secret-${run}-0123456789`).update(body).digest("hex");
        return {
          params: { workspaceId: seeded.workspaceId },
          body,
          contentType: "application/json",
          headers: {
            "x-github-event": "ping",
            "x-github-delivery": randomUUID(),
            "x-hub-signature-256": `sha256=${signature}`,
          },
        };
      },
    },
    createWebhook: {
      amount: () => 10,
      next: () => ({ body: { url: `${local}/hook/${next()}`, events: ["issue.created"] } }),
    },
    getWebhook: {
      prepare: async () => {
        const a = await api("GET", "/webhooks");
        s.webhooks = (a.json.webhooks as { id: string }[]).map((w) => w.id);
        // A change for the hooks to deliver, then their deliveries.
        await api("POST", "/issues", { team: teamA, title: `Ops ${run} delivered` });
        await new Promise((res) => setTimeout(res, 1000));
        for (const id of s.webhooks) {
          const d = await api("GET", `/webhooks/${id}/deliveries`);
          for (const x of d.json.deliveries as { id: string }[]) s.deliveries.push({ webhook: id, id: x.id });
        }
      },
      next: () => ({ params: { id: s.webhooks[next() % s.webhooks.length]! } }),
    },
    listWebhookDeliveries: { next: () => ({ params: { id: s.webhooks[next() % s.webhooks.length]! } }) },
    updateWebhook: {
      next: () => ({ params: { id: s.webhooks[next() % s.webhooks.length]! }, body: { enabled: true } }),
    },
    redeliverWebhook: {
      next: () => {
        const d = s.deliveries[next() % Math.max(1, s.deliveries.length)];
        if (!d) throw new Error("no delivery to send again");
        return { params: { id: d.webhook, deliveryId: d.id } };
      },
    },

    // What consumes its target, each after everything else that uses it.
    deleteIssue: consuming(async () =>
      (await freshIssues(TARGETS)).map((i) => ({ params: { identifier: i.identifier } })),
    ),
    deleteIssueRelation: consuming(async () => {
      const pool = (await freshIssues(TARGETS + 1)).map((i) => i.identifier);
      return many(TARGETS, async (i) => {
        const a = await api("POST", `/issues/${pool[i]}/relations`, { issue: pool[i + 1], type: "blocks" });
        return { params: { identifier: pool[i]!, relationId: a.json.relation.id as string } };
      });
    }),
    deleteComment: consuming(async () =>
      many(TARGETS, async () => {
        const identifier = freshIdent();
        const a = await api("POST", `/issues/${identifier}/comments`, { body: "To be deleted." });
        return { params: { identifier, commentId: a.json.comment.id as string } };
      }),
    ),
    deleteAttachment: consuming(async () =>
      many(40, async (i) => {
        const identifier = freshIdent();
        return { params: { identifier, attachmentId: (await upload(identifier, `gone-${i}.txt`)).id } };
      }),
    ),
    removeProjectMember: consuming(async () => {
      const [project] = s.projects;
      const members = s.users.slice(0, 30);
      for (const user of members) await api("POST", `/projects/${project}/members`, { user });
      return members.map((user) => ({ params: { id: project! }, query: `user=${user}` }));
    }),
    moveProject: consuming(async () =>
      many(40, async (i) => {
        const a = await api("POST", "/projects", { name: `Ops ${run} moved ${i}`, teams: [teamA] });
        return { params: { id: a.json.project.id as string }, body: { team: teamB } };
      }),
    ),
    moveInitiative: consuming(async () => {
      const ws = await api("POST", "/workspaces", { name: `Ops ${run} target` });
      const target = ws.json.workspace as { id: string; slug: string };
      await api("PUT", "/workspaces/active", { workspace: seeded.workspaceSlug });
      const key = "OPS";
      await api("POST", "/teams", { name: "Ops", key }, { "x-service-workspace": target.slug });
      return many(20, async (i) => {
        const a = await api("POST", "/initiatives", { name: `Ops ${run} moved ${i}` });
        return {
          params: { id: a.json.initiative.id as string },
          body: { workspace: target.slug, team: key },
        };
      });
    }),
    deleteCycle: consuming(async () =>
      many(20, async (i) => {
        const a = await api("POST", "/cycles", {
          team: s.cycleTeams[i % s.cycleTeams.length],
          rollover: false,
        });
        return { params: { id: a.json.cycle.id as string } };
      }),
    ),
    mergeLabel: consuming(async () =>
      many(40, async (i) => {
        const a = await api("POST", "/labels", { name: `ops-${run}-from-${i}` });
        const b = await api("POST", "/labels", { name: `ops-${run}-into-${i}` });
        return { params: { id: a.json.label.id as string }, body: { into: b.json.label.id as string } };
      }),
    ),
    deleteLabel: consuming(async () =>
      many(TARGETS, async (i) => {
        const a = await api("POST", "/labels", { name: `ops-${run}-gone-${i}` });
        return { params: { id: a.json.label.id as string } };
      }),
    ),
    deleteDocument: consuming(async () =>
      many(TARGETS, async (i) => {
        const a = await api("POST", "/documents", { title: `Gone ${i}`, team: teamA });
        return { params: { id: a.json.document.id as string } };
      }),
    ),
    deleteView: consuming(async () =>
      many(TARGETS, async (i) => {
        const a = await api("POST", "/views", { name: `Ops ${run} gone ${i}` });
        return { params: { id: a.json.view.id as string } };
      }),
    ),
    deleteViewDefault: consuming(async () =>
      many(TARGETS, async (i) => {
        await api("PUT", "/view-defaults", { viewKey: `ops:${run}:gone:${i}`, sort: "-priority" });
        return { query: `viewKey=${encodeURIComponent(`ops:${run}:gone:${i}`)}` };
      }),
    ),
    deleteInvite: consuming(async () =>
      many(TARGETS, async (i) => ({ params: { id: (await invite(`ops-${run}-gone-${i}@bench.test`)).id } })),
    ),
    deleteApiKey: consuming(async () =>
      many(TARGETS, async (i) => {
        const a = await api("POST", "/api-keys", { name: `ops ${run} gone ${i}` });
        return { params: { id: a.json.key.id as string } };
      }),
    ),
    addTeamMember: (() => {
      let key = "";
      const q = queue<OperationRequest>();
      return {
        prepare: async () => {
          key = opsKey(run, 9999);
          await api("POST", "/teams", { name: `Ops ${run} members`, key });
          q.fill(
            s.users
              .filter((u) => u !== seeded.adminId)
              .map((userId) => ({ params: { key }, body: { userId } })),
          );
        },
        next: () => q.take(),
        amount: () => q.left(),
      } satisfies OperationRecipe;
    })(),
    removeTeamMember: consuming(async () => {
      const key = opsKey(run, 9999);
      const a = await api("GET", `/teams/${key}/members`);
      return (a.json.members as { id: string }[])
        .filter((m) => m.id !== seeded.adminId)
        .map((m) => ({ params: { key, userId: m.id } }));
    }),
    deleteWorkflow: consuming(async () => {
      const out: OperationRequest[] = [];
      for (const key of seeded.teamKeys) {
        const a = await api("GET", `/teams/${key}/workflows`);
        for (const w of (a.json.workflows ?? a.json.rules ?? []) as { id: string }[])
          out.push({ params: { key, ruleId: w.id } });
      }
      return out;
    }),
    deleteTeam: consuming(async () =>
      many(10, async (i) => {
        const key = opsKey(run, 5000 + i);
        await api("POST", "/teams", { name: `Ops ${run} gone ${i}`, key });
        return { params: { key } };
      }),
    ),
    removeMember: consuming(async () => s.invited.map((u) => ({ params: { userId: u.id } }))),
    deleteWebhook: consuming(async () => s.webhooks.map((id) => ({ params: { id } }))),
    deleteSsoSettings: { once: "removes the workspace's one provider: once", next: () => ({}) },
    disconnectCodehost: { once: "removes the workspace's one connection: once", next: () => ({}) },
  } satisfies Record<string, OperationRecipe>);
  return { recipes: r, setup };
}

/** A team key of this run: a letter and six more of the run's hash and `i`, as `TeamKey` allows. */
function opsKey(run: string, i: number): string {
  return `O${createHash("sha256").update(`${run}:${i}`).digest("hex").slice(0, 6).toUpperCase()}`;
}
