import { type CallOptions, done, type Http, unwrap } from "../http.js";
import type { BodyOf, ResponseOf, Schemas } from "../operation-types.js";
import { attachResponse, responseOf } from "../response.js";

/** Workspaces the key can reach, the active workspace, settings and the code-host integration. */
export class WorkspacesApi {
  constructor(private readonly http: Http) {}

  /**
   * The workspaces the key can reach, with the caller's role and which one is active.
   *
   * @example
   * for (const ws of await tracker.workspaces.list()) console.log(ws.slug, ws.role, ws.isActive);
   */
  async list(options?: CallOptions): Promise<ResponseOf<"listWorkspaces">["workspaces"]> {
    return (await unwrap(this.http.raw.GET("/workspaces", this.http.init(options)))).workspaces;
  }

  /**
   * Creates a workspace with the caller as its admin (account keys only).
   *
   * @example
   * const ws = await tracker.workspaces.create({ name: "Acme", slug: "acme" });
   */
  async create(
    body: BodyOf<"createWorkspace">,
    options?: CallOptions,
  ): Promise<ResponseOf<"createWorkspace", 201>["workspace"]> {
    return (await unwrap(this.http.raw.POST("/workspaces", { body, ...this.http.init(options) }))).workspace;
  }

  /**
   * Makes a workspace (slug, name or id) the key's active one, used when a call names none.
   *
   * @example
   * await tracker.workspaces.setActive("acme");
   */
  async setActive(
    workspace: string,
    options?: CallOptions,
  ): Promise<ResponseOf<"setActiveWorkspace">["workspace"]> {
    return (
      await unwrap(
        this.http.raw.PUT("/workspaces/active", { body: { workspace }, ...this.http.init(options) }),
      )
    ).workspace;
  }

  /**
   * Changes the resolved workspace's settings (admins only) and resolves to it as it now is, with the
   * caller's role. (The contract's `updateWorkspace` answers only `{ ok: true }`; the workspace it acted
   * in, named by the answer's `X-Service-Workspace`, is read back from `GET /workspaces`.)
   *
   * @example
   * const { name } = await tracker.workspaces.update({ name: "Acme Inc." });
   */
  async update(
    body: BodyOf<"updateWorkspace">,
    options?: CallOptions,
  ): Promise<Schemas["WorkspaceMembership"]> {
    const ok = await unwrap(this.http.raw.PATCH("/workspace", { body, ...this.http.init(options) }));
    const info = responseOf(ok)!;
    const workspaces = await this.list({ ...options, idempotencyKey: undefined });
    const workspace = workspaces.find((w) => w.slug === info.workspace);
    if (!workspace) throw new Error(`Workspace ${info.workspace} was updated but is no longer reachable.`);
    return attachResponse({ ...workspace }, info);
  }

  /**
   * The code-host integration of the resolved workspace: whether it is configured and its webhook path.
   *
   * @example
   * const { configured, path } = await tracker.workspaces.codehost();
   */
  async codehost(options?: CallOptions): Promise<ResponseOf<"getCodehost">> {
    return unwrap(this.http.raw.GET("/workspace/codehost", this.http.init(options)));
  }

  /**
   * Connects the resolved workspace to GitHub (admins only); the webhook `secret` is in this answer only.
   *
   * @example
   * const { codehost, secret } = await tracker.workspaces.connectCodehost({ provider: "github" });
   */
  async connectCodehost(
    body: BodyOf<"connectCodehost">,
    options?: CallOptions,
  ): Promise<ResponseOf<"connectCodehost">> {
    return unwrap(this.http.raw.PUT("/workspace/codehost", { body, ...this.http.init(options) }));
  }

  /**
   * Disconnects the code host: deliveries are refused from then on (admins only).
   *
   * @example
   * await tracker.workspaces.disconnectCodehost();
   */
  async disconnectCodehost(options?: CallOptions): Promise<void> {
    await done(this.http.raw.DELETE("/workspace/codehost", this.http.init(options)));
  }
}
