import { spawn } from "node:child_process";
import { type Deps, UsageError } from "./command.js";
import { say } from "./output.js";

/**
 * The web board's address of `route` (`issue/ENG-1`, `team/ENG/board`, `projects`) in the workspace the
 * key acts in: the server's origin, then the workspace's slug, which every answer names
 * (`X-Service-Workspace`, read through the SDK's `responseOf`).
 */
export async function boardUrl(deps: Deps, route: string): Promise<string> {
  const { responseOf } = await import("@tracker/sdk");
  const teams = await deps.tracker.teams.list(deps.call);
  const slug = responseOf(teams)?.workspace;
  if (!slug) throw new UsageError("the server did not say which workspace it acted in; pass --workspace");
  return `${deps.connection.baseUrl.replace(/\/+$/, "")}/${encodeURIComponent(slug)}/${route}`;
}

/** The command that opens a URL: `$BROWSER` as gh reads it, else the platform's opener. */
function opener(env: Record<string, string | undefined>): string {
  if (env.BROWSER) return env.BROWSER;
  if (process.platform === "darwin") return "open";
  if (process.platform === "win32") return "start";
  return "xdg-open";
}

/**
 * Opens `url` in the browser (or, with `noBrowser` or no terminal to come back to, prints it on stdout
 * for the caller to use). The opener is not waited for beyond its start.
 */
export async function openInBrowser(deps: Deps, url: string, noBrowser: boolean | undefined): Promise<void> {
  if (noBrowser) {
    deps.stdout.write(`${url}\n`);
    return;
  }
  const command = opener(deps.env);
  say(deps, `Opening ${url} in your browser.`);
  await new Promise<void>((resolve, reject) => {
    const child = spawn("sh", ["-c", `${command} "$1"`, "sh", url], {
      stdio: "ignore",
      detached: true,
      env: deps.env as NodeJS.ProcessEnv,
    });
    child.on("error", reject);
    child.on("spawn", () => {
      child.unref();
      resolve();
    });
  });
}
