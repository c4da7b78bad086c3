/**
 * The server's resident memory, read from /proc, and where in a run it grew: the high-water mark (VmHWM)
 * only ever rises, so reading it after every case and every operation names the step that set the peak,
 * instead of inferring it from the run's order.
 */
import { readFileSync } from "node:fs";

/** A process's resident memory now (VmRSS) and its high-water mark (VmHWM), MB; `undefined` when it is gone. */
export function residentMb(pid: number): { current: number; peak: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1]);
    const current = kb("VmRSS") / 1024;
    if (!Number.isFinite(current)) return undefined;
    const peak = kb("VmHWM") / 1024;
    return { current, peak: Number.isFinite(peak) ? peak : current };
  } catch {
    return undefined;
  }
}

/** A process's resident memory now, MB; `undefined` when it is gone. */
export const rssNowMb = (pid: number): number | undefined => residentMb(pid)?.current;

/** The server's memory after one step of the run (a case, an operation's leg). */
export interface MemoryStep {
  after: string;
  currentMb: number;
  peakMb: number;
}

/** The server's memory after each step; `mark` reads it. */
export class MemoryTrail {
  readonly steps: MemoryStep[] = [];
  constructor(private readonly pid: number) {}

  mark(after: string): void {
    const m = residentMb(this.pid);
    if (m) this.steps.push({ after, currentMb: Math.round(m.current), peakMb: Math.round(m.peak) });
  }
}

/** RESULTS.md's account of the trail: the steps that raised the high-water mark by `minRiseMb` or more. */
export function memoryMarkdown(steps: MemoryStep[], targetMb: number, minRiseMb = 3): string[] {
  if (steps.length < 2) return [];
  const first = steps[0]!;
  const rises: { step: MemoryStep; rise: number }[] = [];
  for (let i = 1; i < steps.length; i++) {
    const rise = steps[i]!.peakMb - steps[i - 1]!.peakMb;
    if (rise >= minRiseMb) rises.push({ step: steps[i]!, rise });
  }
  const last = steps.at(-1)!;
  const lines = [
    "",
    "### Server memory, step by step",
    "",
    `The server's RSS and its high-water mark (VmHWM, which only rises) read after every case and every ` +
      `operation's leg (bench/memory.ts): ${first.currentMb} MB once the server was up (${first.after}), ` +
      `${last.currentMb} MB after the last step (${last.after}), and a peak of ${last.peakMb} MB (target < ` +
      `${targetMb} MB). The steps that raised the peak by ${minRiseMb} MB or more:`,
    "",
    "| after | RSS now MB | peak MB | peak rose by MB |",
    "|---|---:|---:|---:|",
  ];
  for (const { step, rise } of rises)
    lines.push(`| ${step.after.replace(/\|/g, "\\|")} | ${step.currentMb} | ${step.peakMb} | ${rise} |`);
  return lines;
}
