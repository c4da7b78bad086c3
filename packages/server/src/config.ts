import { existsSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import proxyAddr from "proxy-addr";
import type { S3Settings } from "./modules/attachments/attachment-store.js";

/** This package's folder: the parent of `src` (tests) or of `dist` (a build, installed or not). */
const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The repository when the server runs from a checkout of Tracker (`packages/server` below a folder holding
 * `openapi.yaml`); undefined when the package is installed on its own.
 */
export const checkoutRoot: string | undefined = (() => {
  const root = path.resolve(packageRoot, "../..");
  const inCheckout =
    path.basename(path.dirname(packageRoot)) === "packages" && existsSync(path.join(root, "openapi.yaml"));
  return inCheckout ? root : undefined;
})();

/**
 * The contract the server validates against and serves. In a checkout, the hand-written `openapi.yaml` at
 * the repository root, so an edit is seen without a build; in an installed package, the copy that
 * `npm run build` puts into `dist/`.
 */
export const contractFile = checkoutRoot
  ? path.join(checkoutRoot, "openapi.yaml")
  : path.join(packageRoot, "dist", "openapi.yaml");

/**
 * Where the embedded database lives without `TRACKER_DATA_DIR`: `.tracker/data` in a checkout (the README's
 * quick start), else the user's data folder (`$XDG_DATA_HOME/tracker/data`, or `~/.local/share/...`).
 */
function defaultDataDir(env: NodeJS.ProcessEnv): string {
  if (checkoutRoot) return path.join(checkoutRoot, ".tracker", "data");
  const base = env.XDG_DATA_HOME || path.join(env.HOME || homedir(), ".local", "share");
  return path.join(base, "tracker", "data");
}

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
  /**
   * Set: password reset links and notifications (for the people who chose e-mail) are e-mailed through this
   * server (`smtp://user:pass@host:587`).
   */
  smtpUrl: string | undefined;
  /** When notification e-mails go out (`modules/notifications/notification-mailer.ts`). */
  notificationMail: NotificationMailSettings;
  /** Requests a minute per API key (burst: a sixth of it), counted across instances; 0 turns limiting off. */
  rateLimitPerMinute: number;
  /**
   * Who may say where a request came from (`TRACKER_TRUSTED_PROXIES`): the balancers' addresses and
   * ranges, or how many proxies stand in front (a number). Empty: no one, and the client is the socket's
   * peer (`http/client-address.ts`).
   */
  trustedProxies: string[] | number;
  /** Web origins allowed to call the API from a browser (`TRACKER_CORS_ORIGINS`); `"*"` for any, empty for none. */
  corsOrigins: string[] | "*";
  /** On SIGTERM, how long in-flight requests may run before their connections are cut (`TRACKER_DRAIN_TIMEOUT_MS`). */
  drainTimeoutMs: number;
  /**
   * Resources besides the API that OAuth tokens may be issued for and the API accepts them from
   * (`TRACKER_OAUTH_RESOURCES`, comma-separated URLs): the tool servers' MCP endpoints.
   */
  oauthResources: string[];
  /** Files uploaded to issues: size limit, where they are stored, the key that signs their URLs. */
  attachments: AttachmentSettings;
}

export interface NotificationMailSettings {
  /** How often the outbox of `instant` e-mails is looked at (`TRACKER_MAIL_POLL_MS`, default 5 s). */
  pollMs: number;
  /** The hour (UTC, 0-23) the daily e-mails go out (`TRACKER_DIGEST_HOUR`, default 8). */
  digestHour: number;
  /** How often an instance checks whether daily e-mails are due (`TRACKER_DIGEST_CHECK_MS`, default 5 min). */
  digestCheckMs: number;
}

export interface AttachmentSettings {
  /** The largest upload accepted (`TRACKER_UPLOAD_MAX_BYTES`, default 25 MB): larger is 413. */
  maxBytes: number;
  /** Set when `TRACKER_S3_BUCKET` is: files go to that bucket instead of the data folder. */
  s3: S3Settings | undefined;
  /**
   * The key that signs download URLs (`TRACKER_URL_SECRET`). Unset: a random key kept in the data folder
   * (`url-secret`), made on first use; instances sharing one database must share this key.
   */
  urlSecret: string | undefined;
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
    dataDir: path.resolve(env.TRACKER_DATA_DIR || defaultDataDir(env)),
    nodeEnv: env.NODE_ENV ?? "development",
    logLevel,
    publicUrl: env.TRACKER_PUBLIC_URL ?? `http://localhost:${port}`,
    smtpUrl: env.TRACKER_SMTP_URL || undefined,
    notificationMail: {
      pollMs: positiveInt(env.TRACKER_MAIL_POLL_MS, 5_000, "TRACKER_MAIL_POLL_MS"),
      digestHour: digestHour(env.TRACKER_DIGEST_HOUR),
      digestCheckMs: positiveInt(env.TRACKER_DIGEST_CHECK_MS, 300_000, "TRACKER_DIGEST_CHECK_MS"),
    },
    rateLimitPerMinute: nonNegativeInt(
      env.TRACKER_RATE_LIMIT_PER_MINUTE,
      1200,
      "TRACKER_RATE_LIMIT_PER_MINUTE",
    ),
    trustedProxies: trustedProxies(env.TRACKER_TRUSTED_PROXIES),
    corsOrigins: corsOrigins(env.TRACKER_CORS_ORIGINS),
    drainTimeoutMs: nonNegativeInt(env.TRACKER_DRAIN_TIMEOUT_MS, 10_000, "TRACKER_DRAIN_TIMEOUT_MS"),
    oauthResources: (env.TRACKER_OAUTH_RESOURCES ?? "")
      .split(",")
      .map((x) => x.trim())
      .filter(Boolean),
    attachments: {
      maxBytes: nonNegativeInt(env.TRACKER_UPLOAD_MAX_BYTES, 25 * 1024 * 1024, "TRACKER_UPLOAD_MAX_BYTES"),
      s3: s3Settings(env),
      urlSecret: env.TRACKER_URL_SECRET || undefined,
    },
  };
}

/** `TRACKER_S3_*`: any S3-compatible store; the keys may also come from the AWS SDK's own environment. */
function s3Settings(env: NodeJS.ProcessEnv): S3Settings | undefined {
  if (!env.TRACKER_S3_BUCKET) return undefined;
  return {
    bucket: env.TRACKER_S3_BUCKET,
    endpoint: env.TRACKER_S3_ENDPOINT || undefined,
    region: env.TRACKER_S3_REGION || "us-east-1",
    accessKeyId: env.TRACKER_S3_ACCESS_KEY_ID || undefined,
    secretAccessKey: env.TRACKER_S3_SECRET_ACCESS_KEY || undefined,
    forcePathStyle: ["1", "true"].includes((env.TRACKER_S3_FORCE_PATH_STYLE ?? "").toLowerCase()),
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

/**
 * `TRACKER_TRUSTED_PROXIES`: comma-separated addresses and CIDR ranges (`10.0.0.5, 10.1.0.0/16`, `::1`;
 * also `loopback`, `linklocal`, `uniquelocal`), as `proxy-addr` reads them, or a hop count (`1`: the
 * socket's peer is a proxy, whoever it is). A value `proxy-addr` cannot read is refused at start.
 */
function trustedProxies(value: string | undefined): string[] | number {
  const text = (value ?? "").trim();
  if (/^\d+$/.test(text)) return Number(text);
  const items = text
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);
  try {
    proxyAddr.compile(items);
  } catch (err) {
    throw new Error(`TRACKER_TRUSTED_PROXIES: ${(err as Error).message}`);
  }
  return items;
}

function positiveInt(value: string | undefined, fallback: number, name: string): number {
  const n = nonNegativeInt(value, fallback, name);
  if (n === 0) throw new Error(`${name} must be above 0`);
  return n;
}

/** `TRACKER_DIGEST_HOUR`: the hour of the day (UTC) the daily notification e-mails go out. */
function digestHour(value: string | undefined): number {
  const hour = nonNegativeInt(value, 8, "TRACKER_DIGEST_HOUR");
  if (hour > 23) throw new Error(`TRACKER_DIGEST_HOUR must be an hour from 0 to 23, got "${value}"`);
  return hour;
}

function nonNegativeInt(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${value}"`);
  return n;
}

/**
 * A file named on the command line, as the user meant it: `npm run <script> -- FILE` runs the script in
 * the package's folder, so a relative name is taken from where npm was started (`INIT_CWD`).
 */
export function fileArgument(name: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.INIT_CWD ?? process.cwd(), name);
}

/**
 * The one FILE a command such as `npm run backup -- FILE` takes, resolved as `fileArgument` does; `--help`
 * prints `usage` and exits 0, anything but one name prints it and exits 2.
 */
export function oneFileArgument(usage: string): string {
  const { values, positionals } = parseArgs({
    options: { help: { type: "boolean", short: "h" } },
    allowPositionals: true,
  });
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  if (positionals.length !== 1) {
    process.stderr.write(`${usage}\n`);
    process.exit(2);
  }
  return fileArgument(positionals[0]!);
}
