// Projects and initiatives as the planning tools and resources show them.
import type { CallOptions, Schemas, Tracker } from "@tracker/sdk";
import { z } from "zod";
import { facts, progressText } from "./format.js";

type Project = Schemas["Project"];
type Initiative = Schemas["Initiative"];

export const progressOutput = z.object({ percent: z.number(), done: z.number(), total: z.number() });

export const projectRow = z.object({
  name: z.string(),
  status: z.string(),
  health: z.string(),
  progress: progressOutput,
  lead: z.string().nullable(),
  targetDate: z.string().nullable(),
  teams: z.array(z.string()),
  initiative: z.string().nullable(),
});
export type ProjectRow = z.output<typeof projectRow>;

export function toProjectRow(p: Project): ProjectRow {
  return {
    name: p.name,
    status: p.status,
    health: p.health,
    progress: { percent: p.progress.percent, done: p.progress.done, total: p.progress.total },
    lead: p.lead?.name ?? null,
    targetDate: p.targetDate,
    teams: p.teams.map((t) => t.key),
    initiative: p.initiative?.name ?? null,
  };
}

/** `Launch [started] on_track 40% (4/10) · lead Ada · target 2025-03-01 · ENG,OPS` */
export function projectLine(p: ProjectRow): string {
  return facts(
    `${p.name} [${p.status}] ${p.health} ${progressText(p.progress)}`,
    p.lead && `lead ${p.lead}`,
    p.targetDate && `target ${p.targetDate}`,
    p.teams.length > 0 && p.teams.join(","),
    p.initiative && `initiative "${p.initiative}"`,
  );
}

export const initiativeRow = z.object({
  name: z.string(),
  status: z.string(),
  health: z.string(),
  progress: progressOutput,
  lead: z.string().nullable(),
  targetDate: z.string().nullable(),
  projects: z.array(z.string()),
});
export type InitiativeRow = z.output<typeof initiativeRow>;

export function toInitiativeRow(i: Initiative): InitiativeRow {
  return {
    name: i.name,
    status: i.status,
    health: i.health,
    progress: { percent: i.progress.percent, done: i.progress.done, total: i.progress.total },
    lead: i.lead?.email ?? null,
    targetDate: i.targetDate,
    projects: i.projects.map((p) => p.name),
  };
}

export function initiativeLine(i: InitiativeRow): string {
  return facts(
    `${i.name} [${i.status}] ${i.health} ${progressText(i.progress)}`,
    i.lead && `lead ${i.lead}`,
    i.targetDate && `target ${i.targetDate}`,
    i.projects.length > 0 && `${i.projects.length} projects`,
  );
}

/** The project named by name or id, with everything its list row carries, and its description. */
export async function readProject(tracker: Tracker, ref: string, read: CallOptions) {
  const [project, page] = await Promise.all([
    tracker.projects.get(ref, read),
    tracker.projects.pageData(ref, read),
  ]);
  return { project, description: page.project.description };
}

/** The initiative named by name or id, as its list row carries it. */
export function readInitiative(tracker: Tracker, ref: string, read: CallOptions) {
  return tracker.initiatives.get(ref, read);
}

/** Status updates, newest first, one line each. */
export const updateRow = z.object({
  title: z.string(),
  health: z.string(),
  createdAt: z.string(),
  author: z.string(),
  issues: z.array(z.string()),
});
export type UpdateRow = z.output<typeof updateRow>;

export function toUpdateRow(u: Schemas["StatusUpdate"]): UpdateRow {
  return {
    title: u.title,
    health: u.health,
    createdAt: u.createdAt,
    author: u.creator.name,
    issues: u.issues.map((i) => i.identifier),
  };
}
