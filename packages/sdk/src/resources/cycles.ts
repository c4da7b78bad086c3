import { done, type Http, unwrap } from "../http.js";
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
  async list(team: string): Promise<ResponseOf<"listCycles">["cycles"]> {
    return (await unwrap(this.http.raw.GET("/cycles", { params: { query: { team } } }))).cycles;
  }

  /**
   * Starts a cycle; `rolledOver` counts the unfinished issues carried over from the previous one.
   *
   * @example
   * const { cycle, rolledOver } = await tracker.cycles.create({ team: "ENG" });
   */
  async create(body: BodyOf<"createCycle">): Promise<ResponseOf<"createCycle", 201>> {
    return unwrap(this.http.raw.POST("/cycles", { body: body }));
  }

  /**
   * Renames or reschedules a cycle.
   *
   * @example
   * await tracker.cycles.update(cycle.id, { name: "Sprint 12" });
   */
  async update(id: string, body: BodyOf<"updateCycle">): Promise<ResponseOf<"updateCycle">["cycle"]> {
    return (await unwrap(this.http.raw.PATCH("/cycles/{id}", { params: { path: { id } }, body: body })))
      .cycle;
  }

  /**
   * Deletes a cycle; its issues stay, without a cycle.
   *
   * @example
   * await tracker.cycles.delete(cycle.id);
   */
  async delete(id: string): Promise<void> {
    await done(this.http.raw.DELETE("/cycles/{id}", { params: { path: { id } } }));
  }
}
