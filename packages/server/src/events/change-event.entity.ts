import { defineEntity, p } from "@mikro-orm/core";
import { IMPORTING_SQL } from "../db/functions/import-mode.js";
import { Workspace } from "../modules/workspaces/workspace.entity.js";

/**
 * The live stream's log: one row per changed object, written in the same transaction as the change, so a
 * rolled-back change emits nothing and a committed one is never missed. `id` is the SSE event id.
 */
export const ChangeEvent = defineEntity({
  name: "ChangeEvent",
  tableName: "change_events",
  indexes: [{ properties: ["workspace", "id"] }, { properties: ["createdAt"] }],
  properties: {
    id: p.bigint("number").primary().autoincrement(),
    workspace: () => p.manyToOne(Workspace).deleteRule("cascade"),
    entity: p.text(),
    action: p.text(),
    entityId: p.text(),
    identifier: p.text().nullable(),
    teamKey: p.text().nullable(),
    /** The team the object belongs to, when it belongs to one: streams of guests see only their teams. */
    teamId: p.uuid().nullable(),
    /** Written by an import (openapi.yaml, `importIssues`): defaults from the transaction's import mode. */
    imported: p.boolean().defaultRaw(IMPORTING_SQL),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
