import { type CallOptions, done, type Http, unwrap } from "../http.js";
import type { BodyOf, ResponseOf } from "../operation-types.js";

/** Time-boxed iterations of a team. */
export class CyclesApi {
  constructor(private readonly http: Http) {}

  /**
   * A team's cycles.
   *
   * @example
   * const cycles = await tracker.cycles.list("ENG");
   */
  async list(team: string, options?: CallOptions): Promise<ResponseOf<"listCycles">["cycles"]> {
    const call = this.http.raw.GET("/cycles", { params: { query: { team } }, ...this.http.init(options) });
    return (await unwrap(call)).cycles;
  }

  /**
   * Starts a cycle; `rolledOver` counts the unfinished issues carried over from the previous one.
   *
   * @example
   * const { cycle, rolledOver } = await tracker.cycles.create({ team: "ENG" });
   */
  async create(body: BodyOf<"createCycle">, options?: CallOptions): Promise<ResponseOf<"createCycle", 201>> {
    return unwrap(this.http.raw.POST("/cycles", { body, ...this.http.init(options) }));
  }

  /**
   * Renames or reschedules a cycle.
   *
   * @example
   * await tracker.cycles.update(cycle.id, { name: "Sprint 12" });
   */
  async update(
    id: string,
    body: BodyOf<"updateCycle">,
    options?: CallOptions,
  ): Promise<ResponseOf<"updateCycle">["cycle"]> {
    const call = this.http.raw.PATCH("/cycles/{id}", {
      params: { path: { id } },
      body,
      ...this.http.init(options),
    });
    return (await unwrap(call)).cycle;
  }

  /**
   * Deletes a cycle; its issues stay, without a cycle.
   *
   * @example
   * await tracker.cycles.delete(cycle.id);
   */
  async delete(id: string, options?: CallOptions): Promise<void> {
    await done(
      this.http.raw.DELETE("/cycles/{id}", { params: { path: { id } }, ...this.http.init(options) }),
    );
  }
}
