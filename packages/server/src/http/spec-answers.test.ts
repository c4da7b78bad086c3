import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { useTestServer } from "../test/harness.js";
import { SPEC_ENDPOINTS, type SpecEndpoint } from "../test/spec-endpoints.js";

/**
 * The service's named answers stand: every row of its endpoint tables (`test/spec-endpoints.ts`) is an
 * operation of the contract whose success answer requires the row's keys, and a live call of it answers
 * them. A change that replaces a named key (`{ok}` by the object) fails here, in the contract or live.
 */

type Json = Record<string, unknown>;
const contract = parse(readFileSync(new URL("../../../../openapi.yaml", import.meta.url), "utf8")) as Json;

function resolve(node: unknown): Json {
  let n = node as Json;
  while (n && typeof n.$ref === "string") {
    n = (n.$ref as string)
      .replace(/^#\//, "")
      .split("/")
      .reduce<Json>((at, key) => at[key] as Json, contract);
  }
  return n;
}

/** The keys an object schema requires, through `allOf`. */
function requiredKeys(schema: Json): string[] {
  const s = resolve(schema);
  return [
    ...((s.required as string[] | undefined) ?? []),
    ...((s.allOf as Json[] | undefined) ?? []).flatMap((part) => requiredKeys(part)),
  ];
}

const asContractPath = (path: string) => path.replace(/:[A-Za-z]+/g, "{}");

function contractOperation(row: SpecEndpoint): Json | undefined {
  const paths = contract.paths as Record<string, Json>;
  const match = Object.keys(paths).find((p) => p.replace(/\{[^}]+\}/g, "{}") === asContractPath(row.path));
  return match ? (paths[match]![row.method.toLowerCase()] as Json | undefined) : undefined;
}

const rowName = (row: SpecEndpoint) => `${row.method} ${row.path}`;

describe("the contract keeps every answer the service's API names", () => {
  it.each(SPEC_ENDPOINTS.map((row) => [rowName(row), row] as const))("%s", (_name, row) => {
    const op = contractOperation(row);
    expect(op, `${rowName(row)} is an operation of the contract`).toBeDefined();
    const responses = op!.responses as Record<string, Json>;
    const success = Object.keys(responses)
      .filter((code) => /^2\d\d$/.test(code))
      .sort()[0];
    expect(success, `${rowName(row)} has a success answer`).toBeDefined();
    const content = resolve(responses[success!]).content as Record<string, { schema: Json }>;
    if (row.keys.length === 0) {
      expect(Object.keys(content)).toEqual(["text/event-stream"]);
      return;
    }
    const required = requiredKeys(content["application/json"]!.schema);
    expect(required).toEqual(expect.arrayContaining(row.keys));
  });
});

const srv = useTestServer();

interface Answer {
  status: number;
  body: Json;
  type: string | null;
}

describe("live answers carry every key the service's API names", () => {
  it("answers each row with its keys", async () => {
    const { apiKey, workspace, user } = await srv.bootstrap();
    const token = apiKey.token;
    const answered = new Map<string, Answer>();

    const call = async (
      row: `${SpecEndpoint["method"]} ${string}`,
      path: string,
      init: { body?: unknown; ws?: string; as?: string } = {},
    ): Promise<Json> => {
      const [method] = row.split(" ");
      const res = await srv.fetch(
        new Request(`${srv.url}/api/v1${path}`, {
          method,
          headers: {
            authorization: `Bearer ${init.as ?? token}`,
            "x-service-workspace": init.ws ?? workspace.slug,
            ...(init.body === undefined ? {} : { "content-type": "application/json" }),
          },
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
        }),
      );
      const type = res.headers.get("content-type");
      const body = type?.includes("json") ? ((await res.json()) as Json) : {};
      if (!type?.includes("json")) await res.body?.cancel();
      expect(res.status, `${row} (${path}): ${JSON.stringify(body)}`).toBeLessThan(300);
      answered.set(row, { status: res.status, body, type });
      return body;
    };
    const data = (body: Json, key: string) => body[key] as Json;

    // Workspace-level.
    await call("GET /workspaces", "/workspaces");
    const other = data(
      await call("POST /workspaces", "/workspaces", { body: { name: "Spec Other" } }),
      "workspace",
    );
    await call("PUT /workspaces/active", "/workspaces/active", { body: { workspace: workspace.slug } });
    await call("PATCH /workspace", "/workspace", { body: { name: "Spec Renamed" } });
    await call("GET /workspace/codehost", "/workspace/codehost");
    await call("GET /invites", "/invites");
    const invite = data(
      await call("POST /invites", "/invites", { body: { email: "spec-invitee@example.com" } }),
      "invite",
    );
    await call("DELETE /invites/:id", `/invites/${invite.id}`);
    const member = await srv.addMember(token, "member");
    const leaver = await srv.addMember(token, "member");
    await call("PATCH /members/:userId", `/members/${leaver.userId}`, { body: { role: "guest" } });
    await call("DELETE /members/:userId", `/members/${leaver.userId}`);
    await call("GET /users", "/users");

    // API keys.
    await call("GET /api-keys", "/api-keys");
    const key = data(await call("POST /api-keys", "/api-keys", { body: { name: "spec key" } }), "key");
    await call("DELETE /api-keys/:id", `/api-keys/${key.id}`);

    // Teams.
    const team = data(await call("POST /teams", "/teams", { body: { name: "Spec", key: "SPC" } }), "team");
    await call("POST /teams", "/teams", { body: { name: "Spec Two", key: "SPT" } });
    await call("POST /teams", "/teams", {
      body: { name: "Elsewhere", key: "ELS" },
      ws: other.slug as string,
    });
    await call("GET /teams", "/teams");
    await call("GET /teams/all", "/teams/all");
    await call("PATCH /teams/:key", "/teams/SPC", { body: { name: "Spec Team", cyclesEnabled: true } });
    await call("POST /teams/:key/join", "/teams/SPC/join", { as: member.token });
    await call("GET /teams/:key/members", "/teams/SPC/members");
    await call("DELETE /teams/:key/members/:userId", `/teams/SPC/members/${member.userId}`);
    await call("POST /teams/:key/members", "/teams/SPC/members", { body: { userId: member.userId } });
    await call("GET /teams/:key/workflows", "/teams/SPC/workflows");
    const states = team.states as { id: string; name: string }[];
    const rule = await call("POST /teams/:key/workflows", "/teams/SPC/workflows", {
      body: { trigger: "pr_opened", targetStateId: states[2]!.id },
    });
    await call("DELETE /teams/:key/workflows/:ruleId", `/teams/SPC/workflows/${rule.id}`);

    // Issues.
    const a = data(
      await call("POST /issues", "/issues", {
        body: { team: "SPC", title: "Spec A", priority: 1, labels: ["spec"] },
      }),
      "issue",
    );
    const b = data(
      await call("POST /issues", "/issues", { body: { team: "SPC", title: "Spec B" } }),
      "issue",
    );
    const mover = data(
      await call("POST /issues", "/issues", { body: { team: "SPC", title: "Spec move" } }),
      "issue",
    );
    await call("GET /issues", "/issues?team=SPC");
    await call("GET /issues/:identifier", `/issues/${a.identifier}`);
    await call("PATCH /issues/:identifier", `/issues/${a.identifier}`, { body: { title: "Spec A1" } });
    await call("GET /issues/:identifier/page-data", `/issues/${a.identifier}/page-data`);
    await call("POST /issues/:identifier/links", `/issues/${a.identifier}/links`, {
      body: { url: "https://example.com/spec" },
    });
    const relation = data(
      await call("POST /issues/:identifier/relations", `/issues/${a.identifier}/relations`, {
        body: { issue: b.identifier, type: "blocks" },
      }),
      "relation",
    );
    await call("GET /issues/:identifier/relations", `/issues/${a.identifier}/relations`);
    await call(
      "DELETE /issues/:identifier/relations/:relationId",
      `/issues/${a.identifier}/relations/${relation.id}`,
    );
    const comment = data(
      await call("POST /issues/:identifier/comments", `/issues/${a.identifier}/comments`, {
        body: { body: "Hi" },
      }),
      "comment",
    );
    await call("GET /issues/:identifier/comments", `/issues/${a.identifier}/comments`);
    await call(
      "PATCH /issues/:identifier/comments/:commentId",
      `/issues/${a.identifier}/comments/${comment.id}`,
      {
        body: { body: "Hello" },
      },
    );
    await call(
      "DELETE /issues/:identifier/comments/:commentId",
      `/issues/${a.identifier}/comments/${comment.id}`,
    );
    await call("POST /issues/move", "/issues/move", {
      body: { identifiers: [mover.identifier], team: "SPT" },
    });

    // Projects.
    const project = data(
      await call("POST /projects", "/projects", { body: { name: "Spec project", teams: ["SPC"] } }),
      "project",
    );
    const travelling = data(
      await call("POST /projects", "/projects", { body: { name: "Spec travelling", teams: ["SPC"] } }),
      "project",
    );
    await call("GET /projects", "/projects");
    await call("PATCH /projects/:id", `/projects/${project.id}`, { body: { description: "Spec" } });
    await call("POST /projects/:id/members", `/projects/${project.id}/members`, {
      body: { user: member.userId },
    });
    await call("GET /projects/:id/members", `/projects/${project.id}/members`);
    await call("DELETE /projects/:id/members", `/projects/${project.id}/members?user=${member.userId}`);
    await call("GET /projects/:id/page-data", `/projects/${project.id}/page-data`);
    await call("POST /projects/:id/move", `/projects/${travelling.id}/move`, {
      body: { workspace: other.slug, team: "ELS" },
    });

    // Initiatives.
    const initiative = data(
      await call("POST /initiatives", "/initiatives", { body: { name: "Spec initiative" } }),
      "initiative",
    );
    await call("GET /initiatives", "/initiatives");
    await call("PATCH /initiatives/:id", `/initiatives/${initiative.id}`, { body: { description: "Spec" } });
    await call("GET /initiatives/:id/page-data", `/initiatives/${initiative.id}/page-data`);
    await call("POST /initiatives/:id/move", `/initiatives/${initiative.id}/move`, {
      body: { workspace: other.slug, team: "ELS" },
    });

    // Cycles.
    const cycle = data(await call("POST /cycles", "/cycles", { body: { team: "SPC" } }), "cycle");
    await call("GET /cycles", "/cycles?team=SPC");
    await call("PATCH /cycles/:id", `/cycles/${cycle.id}`, { body: { name: "Spec cycle" } });
    await call("DELETE /cycles/:id", `/cycles/${cycle.id}`);

    // Labels.
    const label = data(await call("POST /labels", "/labels", { body: { name: "Spec label" } }), "label");
    const source = data(await call("POST /labels", "/labels", { body: { name: "Spec source" } }), "label");
    await call("GET /labels", "/labels");
    await call("PATCH /labels/:id", `/labels/${label.id}`, { body: { name: "Spec label 2" } });
    await call("POST /labels/:id/merge", `/labels/${source.id}/merge`, { body: { into: label.id } });
    await call("DELETE /labels/:id", `/labels/${label.id}`);

    // Documents.
    const doc = data(
      await call("POST /documents", "/documents", { body: { title: "Spec doc", team: "SPC" } }),
      "document",
    );
    await call("GET /documents", "/documents");
    await call("GET /documents/:id", `/documents/${doc.id}`);
    await call("PATCH /documents/:id", `/documents/${doc.id}`, { body: { content: "Spec" } });
    await call("DELETE /documents/:id", `/documents/${doc.id}`);

    // Status updates.
    await call("POST /updates", "/updates", {
      body: { title: "Spec update", content: "Going", project: project.id },
    });
    await call("GET /updates", `/updates?project=${project.id}`);
    await call("GET /updates/candidates", `/updates/candidates?project=${project.id}`);

    // Views.
    const view = data(await call("POST /views", "/views", { body: { name: "Spec view" } }), "view");
    await call("GET /views", "/views");
    await call("PATCH /views/:id", `/views/${view.id}`, { body: { name: "Spec view 2" } });
    await call("DELETE /views/:id", `/views/${view.id}`);
    await call("PUT /view-defaults", "/view-defaults", { body: { viewKey: "spec" } });
    await call("GET /view-defaults", "/view-defaults");
    await call("DELETE /view-defaults", "/view-defaults?viewKey=spec");

    // My work and events.
    await call("GET /my/digest", "/my/digest");
    await call("GET /events", "/events");
    expect(answered.get("GET /events")?.type).toMatch(/^text\/event-stream/);

    // The last team goes last: deleting it takes its issues.
    await call("DELETE /teams/:key", "/teams/SPT");

    // Outside development mode the reseed is not there at all, as the service's API says (404).
    const reseed = await srv.fetch(
      new Request(`${srv.url}/api/v1/dev/reseed`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
      }),
    );
    expect(reseed.status).toBe(404);
    await reseed.body?.cancel();
    expect(user.id).toBeTruthy();

    const rows = SPEC_ENDPOINTS.filter((row) => rowName(row) !== "POST /dev/reseed");
    expect(rows.filter((row) => !answered.has(rowName(row))).map(rowName)).toEqual([]);
    const missing = rows.flatMap((row) => {
      const { body } = answered.get(rowName(row))!;
      return row.keys.filter((k) => !(k in body)).map((k) => `${rowName(row)} lacks "${k}"`);
    });
    expect(missing).toEqual([]);
    // The named `{ok}` is `true`, whatever rides beside it.
    for (const row of rows.filter((r) => r.keys.includes("ok")))
      expect(answered.get(rowName(row))!.body.ok, rowName(row)).toBe(true);
  });
});
