import type { Schemas } from "@tracker/sdk";
import { type Column, healthStyle, progressBar } from "../../output.js";

export const initiativeColumns: Column<Schemas["Initiative"]>[] = [
  { header: "NAME", value: (i) => i.name, flex: true, max: 40, style: (_, c) => c.bold },
  { header: "STATUS", value: (i) => i.status },
  {
    header: "HEALTH",
    value: (i) => i.health,
    tty: (i) => i.health.replace("_", " "),
    style: (i, c) => healthStyle(c, i.health),
  },
  {
    header: "PROGRESS",
    value: (i) => String(i.progress.percent),
    tty: (i) => `${progressBar(i.progress.percent)} (${i.progress.done}/${i.progress.total})`,
  },
  { header: "PROJECTS", value: (i) => String(i.projects.length) },
  { header: "LEAD", value: (i) => i.lead?.email ?? "", tty: (i) => i.lead?.name ?? "", max: 20 },
  { header: "TARGET", value: (i) => i.targetDate ?? "" },
];
