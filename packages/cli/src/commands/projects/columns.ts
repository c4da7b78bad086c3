import type { Schemas } from "@tracker/sdk";
import { type Column, healthStyle, progressBar } from "../../output.js";

type Project = Schemas["Project"];

/** The project list's columns; piped, the lead is their email (`emails` maps user ids to emails). */
export const projectColumns = (emails: Map<string, string> = new Map()): Column<Project>[] => [
  { header: "NAME", value: (p) => p.name, flex: true, max: 40, style: (_, c) => c.bold },
  { header: "STATUS", value: (p) => p.status },
  {
    header: "HEALTH",
    value: (p) => p.health,
    tty: (p) => p.health.replace("_", " "),
    style: (p, c) => healthStyle(c, p.health),
  },
  {
    header: "PROGRESS",
    value: (p) => String(p.progress.percent),
    tty: (p) => `${progressBar(p.progress.percent)} (${p.progress.done}/${p.progress.total})`,
  },
  {
    header: "LEAD",
    value: (p) => (p.lead ? (emails.get(p.lead.id) ?? p.lead.name) : ""),
    tty: (p) => p.lead?.name ?? "",
    max: 20,
  },
  { header: "TARGET", value: (p) => p.targetDate ?? "" },
  {
    header: "TEAMS",
    value: (p) => p.teams.map((t) => t.key).join(","),
    tty: (p) => p.teams.map((t) => t.key).join(", "),
  },
];
