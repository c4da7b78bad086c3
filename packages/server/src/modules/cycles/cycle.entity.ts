import { defineEntity, p } from "@mikro-orm/core";
import { createdTimestamp, uuidPrimaryKey } from "../../entity-columns.js";
import { Team } from "../teams/team.entity.js";

export const Cycle = defineEntity({
  name: "Cycle",
  tableName: "cycles",
  uniques: [{ properties: ["team", "number"] }],
  properties: {
    id: uuidPrimaryKey(),
    team: () => p.manyToOne(Team).deleteRule("cascade"),
    number: p.integer(),
    name: p.text().nullable(),
    startsAt: p.datetime(),
    endsAt: p.datetime(),
    createdAt: createdTimestamp(),
  },
});

/**
 * The last cycle number a team handed out. Bumped by an upsert that holds the row lock until commit, so
 * concurrent creates of a team's cycles are serialised and a deleted cycle's number is never reused.
 */
export const CycleCounter = defineEntity({
  name: "CycleCounter",
  tableName: "cycle_counters",
  properties: {
    team: () => p.manyToOne(Team).primary().deleteRule("cascade"),
    lastNumber: p.integer(),
  },
});
