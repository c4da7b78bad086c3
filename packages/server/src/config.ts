import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root: the server reads the contract and keeps its embedded database below it. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

export interface Config {
  port: number;
  /** Set: use this PostgreSQL and start nothing. Unset: start the embedded one in `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  nodeEnv: string;
  logLevel: LogLevel;
  /** Public base URL used to build invite links. */
  publicUrl: string;
  /** Requests a minute per API key (burst: a sixth of it); 0 turns limiting off. */
  rateLimitPerMinute: number;
  /** Web origins allowed to call the API from a browser (`TRACKER_CORS_ORIGINS`); `"*"` for any, empty for none. */
  corsOrigins: string[] | "*";
}

const LOG_LEVELS: LogLevel[] = ["debug", "info", "warn", "error", "silent"];

/** Reads the documented environment (see README): PORT, DATABASE_URL, TRACKER_DATA_DIR, NODE_ENV, LOG_LEVEL. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  const logLevel = (env.LOG_LEVEL ?? "info") as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}`);
  return {
    port,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.TRACKER_DATA_DIR ?? path.join(repoRoot, ".tracker", "data")),
    nodeEnv: env.NODE_ENV ?? "development",
    logLevel,
    publicUrl: env.TRACKER_PUBLIC_URL ?? `http://localhost:${port}`,
    rateLimitPerMinute: nonNegativeInt(
      env.TRACKER_RATE_LIMIT_PER_MINUTE,
      1200,
      "TRACKER_RATE_LIMIT_PER_MINUTE",
    ),
    corsOrigins: corsOrigins(env.TRACKER_CORS_ORIGINS),
  };
}

/**
 * `TRACKER_CORS_ORIGINS`: comma-separated origins (`https://board.example.com`), or `*`. Each is compared
 * with a browser's `Origin` exactly, so a path or a trailing slash would never match: refused at start.
 */
function corsOrigins(value: string | undefined): string[] | "*" {
  const items = (value ?? "")
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);
  if (items.includes("*")) return "*";
  for (const item of items) {
    let origin: string | undefined;
    try {
      origin = new URL(item).origin;
    } catch {
      origin = undefined;
    }
    if (origin !== item)
      throw new Error(`TRACKER_CORS_ORIGINS: "${item}" is not an origin like https://board.example.com`);
  }
  return items;
}

function nonNegativeInt(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${value}"`);
  return n;
}
