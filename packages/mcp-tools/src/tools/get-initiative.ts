import { z } from "zod";
import { progressText, shortTime } from "../format.js";
import { initiativeRefInput } from "../inputs.js";
import {
  initiativeLine,
  initiativeRow,
  readInitiative,
  toInitiativeRow,
  toUpdateRow,
  updateRow,
} from "../planning.js";
import { defineTool } from "../tool.js";

export const getInitiativeTool = defineTool({
  name: "get_initiative",
  title: "Get initiative",
  description:
    "Read an initiative by name: status, health, progress, lead, target date, description, its projects with " +
    "their progress, and latest status updates.",
  input: { initiative: initiativeRefInput },
  output: {
    initiative: initiativeRow.extend({
      description: z.string().nullable(),
      projectProgress: z.array(z.object({ name: z.string(), status: z.string(), percent: z.number() })),
      updates: z.array(updateRow),
    }),
  },
  readOnly: true,
  destructive: false,
  idempotent: true,
  async run(input, { tracker, read }) {
    const found = await readInitiative(tracker, input.initiative, read);
    const updates = (await tracker.updates.list({ initiative: found.id }, read)).slice(0, 3).map(toUpdateRow);
    const initiative = {
      ...toInitiativeRow(found),
      description: found.description,
      projectProgress: found.projects.map((p) => ({
        name: p.name,
        status: p.status,
        percent: p.progress.percent,
      })),
      updates,
    };
    const lines = [
      initiativeLine(initiative),
      "",
      initiative.description?.trim() || "(no description)",
      "",
      "Projects:",
    ];
    for (const p of found.projects) lines.push(`  ${p.name} [${p.status}] ${progressText(p.progress)}`);
    if (!found.projects.length) lines.push("  none");
    if (updates.length) {
      lines.push("", "Latest status updates:");
      for (const u of updates)
        lines.push(`  ${shortTime(u.createdAt)} ${u.health} "${u.title}" by ${u.author}`);
    }
    return { text: lines.join("\n"), data: { initiative } };
  },
  about: (input) => ({ initiative: input.initiative }),
});
