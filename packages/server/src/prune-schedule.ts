import type { Logger } from "./logger.js";

/** Upkeep one instance runs now and then: a prune of rows past their retention. */
export interface PruneTask {
  /** What is pruned, for the log: `search: recent issues`. */
  name: string;
  /** Prunes once; resolves to the rows deleted. */
  run(): Promise<number>;
}

/** How often each task runs; also once a minute after start, so instances restarted often still run them. */
export const PRUNE_INTERVAL_MS = 10 * 60_000;

/** Runs each task every `intervalMs` until the returned function is called. Failures are logged, not thrown. */
export function schedulePrunes(
  logger: Logger,
  tasks: PruneTask[],
  intervalMs = PRUNE_INTERVAL_MS,
): () => void {
  const runAll = () => {
    for (const task of tasks) {
      task
        .run()
        .then((deleted) => {
          if (deleted > 0) logger.info(`${task.name}: pruned`, { deleted });
        })
        .catch((err) => logger.warn(`${task.name}: pruning failed`, { error: (err as Error).message }));
    }
  };
  const first = setTimeout(runAll, Math.min(60_000, intervalMs));
  const every = setInterval(runAll, intervalMs);
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
