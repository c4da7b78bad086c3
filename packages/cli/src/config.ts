import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { UsageError } from "./command.js";

/** What renews an access token stored by `tracker auth login --web` (OAuth device login). */
export interface StoredOAuth {
  clientId: string;
  tokenEndpoint: string;
  refreshToken: string;
  /** When the stored access token expires, in epoch milliseconds. */
  expiresAt: number;
}

/** One server `tracker auth login` stored a key (or an OAuth access token) for. */
export interface StoredServer {
  apiKey: string;
  /** Set for a login with --web: the access token in `apiKey` is renewed with it when it expires. */
  oauth?: StoredOAuth;
  /** Workspace to act in when neither --workspace nor TRACKER_WORKSPACE names one. */
  workspace?: string;
  /** Who the key belongs to, for `auth status`. */
  user?: string;
}

/** `config.json` in the config directory: the servers logged in to, and which one is used by default. */
export interface ConfigFile {
  default?: string;
  servers: Record<string, StoredServer>;
  /** `tracker alias set`: a word and the command line it stands for. */
  aliases?: Record<string, string>;
}

export const DEFAULT_URL = "http://localhost:3000";

/** A server URL as stored and compared: origin plus path, no trailing slash, no `/api/v1`. */
export function normalizeUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(input) ? input : `http://${input}`);
  } catch {
    throw new UsageError(`invalid server URL "${input}"; expected something like http://localhost:3000`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`invalid server URL "${input}"; it must start with http:// or https://`);
  }
  const pathname = url.pathname.replace(/\/+$/, "").replace(/\/api\/v1$/, "");
  return `${url.origin}${pathname}`;
}

/**
 * The user's config directory for tracker: `$XDG_CONFIG_HOME/tracker`, else `~/.config/tracker`. The file
 * holds API keys, so it is written readable by its owner only (0600, in a 0700 directory).
 */
export class ConfigStore {
  readonly dir: string;
  readonly file: string;

  constructor(env: Record<string, string | undefined>) {
    const base = env.XDG_CONFIG_HOME || path.join(env.HOME || homedir(), ".config");
    this.dir = path.join(base, "tracker");
    this.file = path.join(this.dir, "config.json");
  }

  read(): ConfigFile {
    let text: string;
    try {
      text = readFileSync(this.file, "utf8");
    } catch {
      return { servers: {} };
    }
    try {
      const parsed = JSON.parse(text) as Partial<ConfigFile>;
      return { ...parsed, servers: parsed.servers ?? {} };
    } catch {
      throw new Error(`${this.file} is not valid JSON; fix it or remove it and run 'tracker auth login'`);
    }
  }

  write(config: ConfigFile): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    // Written beside and renamed over, so a crash never leaves half a file; created 0600 so the key is never
    // readable by others, not even for a moment.
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
    chmodSync(temp, 0o600);
    renameSync(temp, this.file);
  }
}
