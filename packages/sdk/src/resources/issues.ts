import { contentKey } from "../content-key.js";
import { TrackerError } from "../errors.js";
import { type CallOptions, done, type Http, type Page, pageOf, paginate, unwrap } from "../http.js";
import type { BodyOf, QueryOf, ResponseOf, Schemas } from "../operation-types.js";
import { canReportWithXhr, countingStream, type UploadProgress, xhrUpload } from "../upload-progress.js";

/** Options of {@link IssuesApi.import}: the call's, plus progress and the keys' prefix. */
export interface ImportOptions extends CallOptions {
  /** Called after each batch: how many items are settled (created or refused) of how many. */
  onProgress?: (settled: number, total: number) => void;
  /** Starts every batch's `Idempotency-Key` (default `import`); change it to import the same items again. */
  keyPrefix?: string;
}

/** What {@link IssuesApi.import} did: the issues created, by the index of their item, and the refusals. */
export interface ImportResult {
  created: { index: number; issue: Schemas["Issue"] }[];
  /** `reason`: one line for a person, e.g. `invalid_request: title must NOT have fewer than 1 characters`. */
  refused: { index: number; error: TrackerError; reason: string }[];
}

/**
 * The bytes {@link IssuesApi.attach} uploads: a `Blob` (a browser `File`, or Node's `fs.openAsBlob`, which
 * reads the file as it is sent; see `fileFromPath` of `@tracker/sdk/node`), a `Uint8Array` or `Buffer`, a
 * web `ReadableStream`, or a Node stream (anything async-iterable over `Uint8Array` chunks).
 */
export type AttachmentData = Blob | Uint8Array | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/** Options of {@link IssuesApi.attach}. */
export interface AttachOptions extends CallOptions {
  /** The file's name as shown; default the `Blob`'s `name` when it is a `File`, else `file`. */
  filename?: string | undefined;
  /**
   * The type the client believes it is (sent as `Content-Type`); the server takes the type from the
   * bytes whatever this says (the contract's `uploadAttachment`).
   */
  contentType?: string | undefined;
  /**
   * Called as the bytes go out, with how many are sent and the whole size when known: for a progress
   * bar. In a browser the upload then goes by `XMLHttpRequest` (the only way a page can watch an upload
   * over HTTP/1.1), past this client's `fetch` and its request hooks.
   */
  onProgress?: ((progress: UploadProgress) => void) | undefined;
}

/** A download of {@link IssuesApi.download}: the bytes as a stream, and what the server says of them. */
export interface AttachmentDownload {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  /** `inline` or `attachment` (what a browser could run is never inline). */
  disposition: "inline" | "attachment";
  size: number | undefined;
}

/** Issues, named by identifier (`ENG-123`): lists, reads, writes, links, relations and moves. */
export class IssuesApi {
  constructor(private readonly http: Http) {}

  /**
   * One page of issues matching the filters; `nextOffset` is the next page's offset, `null` on the last.
   *
   * @example
   * const { items, nextOffset } = await tracker.issues.list({ team: "ENG", special: ["overdue", "blocked"] });
   */
  async list(query: QueryOf<"listIssues"> = {}, options?: CallOptions): Promise<Page<Schemas["Issue"]>> {
    const page = await unwrap(
      this.http.raw.GET("/issues", { params: { query }, ...this.http.init(options) }),
    );
    return pageOf(page, page.issues, page.nextOffset, page.nextCursor);
  }

  /**
   * Every issue matching the filters, fetching page after page as the loop asks for more.
   *
   * @example
   * for await (const issue of tracker.issues.iterate({ assignee: "me", stateType: ["started"] })) {
   *   console.log(issue.identifier, issue.title);
   * }
   */
  iterate(query: QueryOf<"listIssues"> = {}, options?: CallOptions): AsyncIterable<Schemas["Issue"]> {
    return paginate(query, (q) => this.list(q, options));
  }

  /**
   * How many issues match the filters (the same as {@link IssuesApi.list}'s), in total and per group:
   * `groupBy` `state` (default; keys are state ids), `stateType`, `assignee` (user id, `null` unassigned),
   * `priority` (0–4), `label` (label id, `null` without labels; an issue with two labels counts in both),
   * `project`, `cycle` (id, `null` for none) or `team`. Groups are listed most issues first.
   *
   * @example
   * const { total, groups } = await tracker.issues.counts({ team: "ENG", groupBy: "state" });
   */
  async counts(
    query: QueryOf<"countIssues"> = {},
    options?: CallOptions,
  ): Promise<ResponseOf<"countIssues">> {
    return unwrap(this.http.raw.GET("/issues/counts", { params: { query }, ...this.http.init(options) }));
  }

  /**
   * One issue with its details.
   *
   * @example
   * const issue = await tracker.issues.get("ENG-123");
   */
  async get(identifier: string, options?: CallOptions): Promise<ResponseOf<"getIssue">["issue"]> {
    const call = this.http.raw.GET("/issues/{identifier}", {
      params: { path: { identifier } },
      ...this.http.init(options),
    });
    return (await unwrap(call)).issue;
  }

  /**
   * Creates an issue in a team.
   *
   * @example
   * const issue = await tracker.issues.create({ team: "ENG", title: "Fix login", priority: 2 });
   */
  async create(
    body: BodyOf<"createIssue">,
    options?: CallOptions,
  ): Promise<ResponseOf<"createIssue", 201>["issue"]> {
    return (await unwrap(this.http.raw.POST("/issues", { body, ...this.http.init(options) }))).issue;
  }

  /**
   * Creates up to 100 issues in one request and one transaction, all or nothing, numbered in the order
   * given; resolves to them in that order. A refused item creates none and rejects with that item's
   * problem (`detail` starts "Issue 3 of 10: …"). For imports: one commit and one wait on a team's number
   * lock per batch instead of per issue; retried safely like every create.
   *
   * @example
   * const rows = [{ title: "Crash on save" }, { title: "Slow search" }];
   * const created = await tracker.issues.createMany(rows.map((r) => ({ team: "ENG", ...r })));
   */
  async createMany(
    issues: BodyOf<"createIssues">["issues"],
    options?: CallOptions,
  ): Promise<ResponseOf<"createIssues", 201>["issues"]> {
    const call = this.http.raw.POST("/issues/batch", { body: { issues }, ...this.http.init(options) });
    return (await unwrap(call)).issues;
  }

  /**
   * Import mode (admins): writes up to 100 issues from another tracker with their comments, original
   * times and people (emails; placeholders for people not yet members), in one transaction, all or
   * nothing. An item whose `source` was imported before updates that issue instead, so running an import
   * again changes nothing twice; each answer item says `created` or `updated`. Change events say
   * `imported: true`, and nobody is notified.
   *
   * @example
   * const { issues } = await tracker.issues.importFrom([
   *   { team: "ENG", title: "Crash", source: { system: "jira", id: "10001" }, createdAt: "2024-01-02T10:00:00Z" },
   * ]);
   */
  async importFrom(
    issues: BodyOf<"importIssues">["issues"],
    options?: CallOptions & { names?: BodyOf<"importIssues">["names"] },
  ): Promise<ResponseOf<"importIssues", 200>> {
    const { names, ...call } = options ?? {};
    const body = { issues, ...(names ? { names } : {}) };
    return unwrap(this.http.raw.POST("/import/issues", { body, ...this.http.init(call) }));
  }

  /**
   * Creates any number of issues, 100 to a request (`createMany`), in order. Unlike `createMany`, one
   * refused item does not stop the others: it is reported in `refused` with its error, and the rest of its
   * batch is sent again without it. Each batch's idempotency key is made from its items and their
   * positions, so running the same import again (after a crash, say) creates nothing twice.
   *
   * @example
   * const { created, refused } = await tracker.issues.import(rows.map((r) => ({ team: "ENG", title: r.title })), {
   *   onProgress: (settled, total) => console.error(`${settled}/${total}`),
   * });
   * for (const { index, error } of refused) console.error(`row ${index + 1}: ${error.detail}`);
   */
  async import(items: BodyOf<"createIssue">[], options: ImportOptions = {}): Promise<ImportResult> {
    const { onProgress, keyPrefix = "import", ...call } = options;
    const result: ImportResult = { created: [], refused: [] };
    for (let start = 0; start < items.length; start += BATCH_MAX) {
      let batch = items.slice(start, start + BATCH_MAX).map((body, i) => ({ index: start + i, body }));
      while (batch.length > 0) {
        const key = contentKey(
          batch.map(({ index, body }) => `${index}\n${JSON.stringify(body)}`).join("\n"),
        );
        try {
          const issues = await this.createMany(
            batch.map(({ body }) => body),
            { ...call, idempotencyKey: `${keyPrefix}-${key}` },
          );
          result.created.push(...issues.map((issue, i) => ({ index: batch[i]!.index, issue })));
          break;
        } catch (error) {
          const at = error instanceof TrackerError ? refusedItem(error) : undefined;
          if (at === undefined || at >= batch.length) throw error;
          result.refused.push({
            index: batch[at]!.index,
            error: error as TrackerError,
            reason: reasonOf(error as TrackerError),
          });
          batch = batch.filter((_, i) => i !== at);
        }
      }
      onProgress?.(Math.min(start + BATCH_MAX, items.length), items.length);
    }
    return result;
  }

  /**
   * Changes an issue; absent fields are left alone and `null` clears a field.
   *
   * @example
   * await tracker.issues.update("ENG-123", { state: "In Progress", assignee: "me" });
   */
  async update(
    identifier: string,
    body: BodyOf<"updateIssue">,
    options?: CallOptions,
  ): Promise<ResponseOf<"updateIssue">["issue"]> {
    const call = this.http.raw.PATCH("/issues/{identifier}", {
      params: { path: { identifier } },
      body,
      ...this.http.init(options),
    });
    return (await unwrap(call)).issue;
  }

  /**
   * Delegates the issue to an agent (its name or id), beside its assignee, or clears it with `null`: a new
   * delegate gets a session on the issue and is told at once.
   *
   * @example
   * const issue = await tracker.issues.delegate("ENG-1", "triage-bot");
   */
  async delegate(
    identifier: string,
    agent: string | null,
    options?: CallOptions,
  ): Promise<ResponseOf<"updateIssue">["issue"]> {
    return this.update(identifier, { delegate: agent }, options);
  }

  /**
   * Everything the issue page shows in one call: the issue, comments, sub-issues, relations, choices.
   *
   * @example
   * const { issue, comments, subIssues } = await tracker.issues.pageData("ENG-123");
   */
  async pageData(identifier: string, options?: CallOptions): Promise<ResponseOf<"getIssuePageData">> {
    return unwrap(
      this.http.raw.GET("/issues/{identifier}/page-data", {
        params: { path: { identifier } },
        ...this.http.init(options),
      }),
    );
  }

  /**
   * Attaches a web link to an issue.
   *
   * @example
   * await tracker.issues.addLink("ENG-123", { url: "https://example.com/spec", title: "Spec" });
   */
  async addLink(
    identifier: string,
    body: BodyOf<"createIssueLink">,
    options?: CallOptions,
  ): Promise<ResponseOf<"createIssueLink", 201>["link"]> {
    const call = this.http.raw.POST("/issues/{identifier}/links", {
      params: { path: { identifier } },
      body,
      ...this.http.init(options),
    });
    return (await unwrap(call)).link;
  }

  /**
   * Deletes the issue for good, with its comments, relations and history (admins, or its creator).
   *
   * @example
   * await tracker.issues.delete("ENG-123");
   */
  async delete(identifier: string, options?: CallOptions): Promise<void> {
    await done(
      this.http.raw.DELETE("/issues/{identifier}", {
        params: { path: { identifier } },
        ...this.http.init(options),
      }),
    );
  }

  /**
   * Archives the issue: it leaves lists and progress but keeps its identifier, comments, attachments and
   * history, and reads as before with `archivedAt` set. Archiving an archived issue changes nothing.
   * List archived issues with `list({ archived: "true" })`.
   *
   * @example
   * const issue = await tracker.issues.archive("ENG-123");
   * await tracker.issues.unarchive(issue.identifier);
   */
  async archive(identifier: string, options?: CallOptions): Promise<ResponseOf<"archiveIssue">["issue"]> {
    const call = this.http.raw.POST("/issues/{identifier}/archive", {
      params: { path: { identifier } },
      ...this.http.init(options),
    });
    return (await unwrap(call)).issue;
  }

  /**
   * Restores an archived issue to lists and progress (`archivedAt` back to `null`); an issue that is not
   * archived is left as it is.
   *
   * @example
   * await tracker.issues.unarchive("ENG-123");
   */
  async unarchive(identifier: string, options?: CallOptions): Promise<ResponseOf<"unarchiveIssue">["issue"]> {
    const call = this.http.raw.POST("/issues/{identifier}/unarchive", {
      params: { path: { identifier } },
      ...this.http.init(options),
    });
    return (await unwrap(call)).issue;
  }

  /**
   * Follows the issue (`true`) or stops following it: its changes reach the caller's inbox or not.
   *
   * @example
   * await tracker.issues.subscribe("ENG-123", false);
   */
  async subscribe(identifier: string, subscribed = true, options?: CallOptions): Promise<boolean> {
    const init = { params: { path: { identifier } }, ...this.http.init(options) };
    const call = subscribed
      ? this.http.raw.PUT("/issues/{identifier}/subscription", init)
      : this.http.raw.DELETE("/issues/{identifier}/subscription", init);
    return (await unwrap(call)).subscribed;
  }

  /**
   * Whether the caller follows the issue (created it, is assigned it, or subscribed, and did not
   * unsubscribe since).
   *
   * @example
   * if (!(await tracker.issues.subscribed("ENG-123"))) await tracker.issues.subscribe("ENG-123");
   */
  async subscribed(identifier: string, options?: CallOptions): Promise<boolean> {
    const call = this.http.raw.GET("/issues/{identifier}/subscription", {
      params: { path: { identifier } },
      ...this.http.init(options),
    });
    return (await unwrap(call)).subscribed;
  }

  /**
   * One page of the issue's history, oldest first: every change with who made it and when. Pass the
   * page's `nextCursor` as `cursor` for the next one (`null` on the last page).
   *
   * @example
   * const { events, nextCursor } = await tracker.issues.history("ENG-123", { limit: 20 });
   */
  async history(
    identifier: string,
    query: QueryOf<"getIssueHistory"> = {},
    options?: CallOptions,
  ): Promise<ResponseOf<"getIssueHistory">> {
    const call = this.http.raw.GET("/issues/{identifier}/history", {
      params: { path: { identifier }, query },
      ...this.http.init(options),
    });
    return unwrap(call);
  }

  /**
   * The issue's whole history, oldest first, fetching page after page as the loop asks for more.
   *
   * @example
   * for await (const e of tracker.issues.iterateHistory("ENG-123")) console.log(e.type, e.actor?.name);
   */
  async *iterateHistory(
    identifier: string,
    options?: CallOptions,
  ): AsyncIterable<ResponseOf<"getIssueHistory">["events"][number]> {
    let cursor: string | undefined;
    do {
      const page = await this.history(identifier, { limit: 200, ...(cursor ? { cursor } : {}) }, options);
      yield* page.events;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }

  /**
   * The issue's relations (blocks, blocked by, related, duplicate).
   *
   * @example
   * const blockers = (await tracker.issues.relations("ENG-123")).filter((r) => r.type === "blocked_by");
   */
  async relations(
    identifier: string,
    options?: CallOptions,
  ): Promise<ResponseOf<"listIssueRelations">["relations"]> {
    const call = this.http.raw.GET("/issues/{identifier}/relations", {
      params: { path: { identifier } },
      ...this.http.init(options),
    });
    return (await unwrap(call)).relations;
  }

  /**
   * Relates the issue to another one, from this issue's side.
   *
   * @example
   * await tracker.issues.addRelation("ENG-1", { issue: "ENG-2", type: "blocks" });
   */
  async addRelation(
    identifier: string,
    body: BodyOf<"createIssueRelation">,
    options?: CallOptions,
  ): Promise<ResponseOf<"createIssueRelation", 201>["relation"]> {
    const call = this.http.raw.POST("/issues/{identifier}/relations", {
      params: { path: { identifier } },
      body,
      ...this.http.init(options),
    });
    return (await unwrap(call)).relation;
  }

  /**
   * Removes a relation.
   *
   * @example
   * await tracker.issues.deleteRelation("ENG-1", relation.id);
   */
  async deleteRelation(identifier: string, relationId: string, options?: CallOptions): Promise<void> {
    await done(
      this.http.raw.DELETE("/issues/{identifier}/relations/{relationId}", {
        params: { path: { identifier, relationId } },
        ...this.http.init(options),
      }),
    );
  }

  /**
   * Uploads a file to the issue (the contract's `uploadAttachment`), streamed: resolves to the stored
   * `IssueMedia` (`url`, `metadata.contentType` sniffed from the bytes, `width`/`height` of images). A
   * stream body is sent once, without retries (it cannot be replayed).
   *
   * @example
   * const media = await tracker.issues.attach("ENG-1", file, { filename: "shot.png" });
   * const log = await tracker.issues.attach("ENG-1", Buffer.from(text), { filename: "run.log" });
   */
  async attach(
    identifier: string,
    data: AttachmentData,
    options: AttachOptions = {},
  ): Promise<Schemas["IssueMedia"]> {
    const { filename, contentType, onProgress, ...call } = options;
    const name = filename ?? (data as { name?: unknown }).name;
    const byXhr = onProgress !== undefined && canReportWithXhr(data);
    const counted = onProgress !== undefined && !byXhr;
    const streamed = counted || (!(data instanceof Blob) && !(data instanceof Uint8Array));
    let body: AttachmentData =
      data instanceof Blob || data instanceof Uint8Array || data instanceof ReadableStream
        ? data
        : ReadableStream.from(data);
    if (counted) {
      const total =
        data instanceof Blob ? data.size : data instanceof Uint8Array ? data.byteLength : undefined;
      body = countingStream(body as Blob | Uint8Array | ReadableStream<Uint8Array>, total, onProgress);
    }
    const init = this.http.init(call, streamed);
    if (byXhr) init.fetch = (request: Request) => xhrUpload(request, data, onProgress);
    const answer = this.http.raw.POST("/issues/{identifier}/attachments", {
      params: { path: { identifier }, query: { filename: typeof name === "string" && name ? name : "file" } },
      body: body as never,
      bodySerializer: (b: unknown) => b,
      ...init,
      headers: {
        "Content-Type": contentType || (data instanceof Blob && data.type) || "application/octet-stream",
        ...init.headers,
      },
      // A stream is sent as it is read (fetch needs `duplex` for that).
      ...(streamed ? { duplex: "half" } : {}),
    } as never);
    return (
      await unwrap(answer as Promise<{ data?: { attachment: Schemas["IssueMedia"] }; response: Response }>)
    ).attachment;
  }

  /**
   * The issue's files, oldest first, each with a signed `url` valid for at least an hour.
   *
   * @example
   * for (const file of await tracker.issues.attachments("ENG-1")) console.log(file.title, file.url);
   */
  async attachments(
    identifier: string,
    options?: CallOptions,
  ): Promise<ResponseOf<"listAttachments">["attachments"]> {
    return (
      await unwrap(
        this.http.raw.GET("/issues/{identifier}/attachments", {
          params: { path: { identifier } },
          ...this.http.init(options),
        }),
      )
    ).attachments;
  }

  /** Deletes one of the issue's files (its uploader or an admin may). */
  async deleteAttachment(identifier: string, attachmentId: string, options?: CallOptions): Promise<void> {
    await done(
      this.http.raw.DELETE("/issues/{identifier}/attachments/{attachmentId}", {
        params: { path: { identifier, attachmentId } },
        ...this.http.init(options),
      }),
    );
  }

  /**
   * Downloads a file by the signed `url` of its `IssueMedia` (a path on the server, or a full URL).
   *
   * @example
   * const [file] = await tracker.issues.attachments("ENG-1");
   * const { body } = await tracker.issues.download(file.url);
   * await new Response(body).arrayBuffer();
   */
  async download(url: string, options?: CallOptions): Promise<AttachmentDownload> {
    const parsed = new URL(url, "http://server");
    const match = /\/attachments\/([^/]+)\/content$/.exec(parsed.pathname);
    if (!match) throw new TypeError(`Not an attachment URL: ${url}`);
    const answer = await this.http.raw.GET("/attachments/{attachmentId}/content", {
      params: {
        path: { attachmentId: decodeURIComponent(match[1]!) },
        query: {
          expires: Number(parsed.searchParams.get("expires")),
          signature: parsed.searchParams.get("signature") ?? "",
        },
      },
      parseAs: "stream",
      ...this.http.init(options),
    });
    const { response } = answer;
    if (!response.ok) throw TrackerError.fromResponse(response, answer.error);
    const length = response.headers.get("content-length");
    return {
      body: response.body!,
      contentType: response.headers.get("content-type") ?? "application/octet-stream",
      disposition: response.headers.get("content-disposition")?.startsWith("inline")
        ? "inline"
        : "attachment",
      size: length === null ? undefined : Number(length),
    };
  }

  /**
   * Moves issues to another team; each gets a new identifier there. Resolves to the move's report
   * (`moved`).
   *
   * @example
   * const moved = await tracker.issues.move({ identifiers: ["ENG-1", "ENG-2"], team: "OPS" });
   */
  async move(body: BodyOf<"moveIssues">, options?: CallOptions): Promise<ResponseOf<"moveIssues">["moved"]> {
    return (await unwrap(this.http.raw.POST("/issues/move", { body, ...this.http.init(options) }))).moved;
  }
}

/** The most issues `POST /issues/batch` takes. */
const BATCH_MAX = 100;

/** Which item of a batch a refusal names: `errors[0].path` is `/body/issues/<i>` (or below it). */
function refusedItem(error: TrackerError): number | undefined {
  const match = /^\/body\/issues\/(\d+)/.exec(error.errors[0]?.path ?? "");
  return match ? Number(match[1]) : undefined;
}

/** A refusal in one line: the item's own fields (paths made relative to it) or else the problem's detail. */
function reasonOf(error: TrackerError): string {
  const fields = error.errors
    .map((e) => ({ path: e.path.replace(/^\/body\/issues\/\d+\/?/, ""), message: e.message }))
    .filter((e) => e.path !== "")
    .map((e) => `${e.path.replace(/\//g, ".")} ${e.message}`);
  const detail = error.detail.replace(/^Issue \d+ of \d+: /, "");
  return `${error.code}: ${fields.length ? fields.join("; ") : detail}`;
}
