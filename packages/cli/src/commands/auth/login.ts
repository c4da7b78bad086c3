import { type Deps, defineCommand, type Opts, UsageError } from "../../command.js";
import { DEFAULT_URL, normalizeUrl } from "../../config.js";
import { printJson, say } from "../../output.js";
import { deviceLogin } from "./web-login.js";

export const spec = defineCommand({
  summary: "Log in to a server: check an API key and store it for later commands",
  description:
    "The key is checked against the server, then stored in $XDG_CONFIG_HOME/tracker/config.json (else\n" +
    "~/.config/tracker), readable by you only. Several servers can be stored; the last one logged in to is\n" +
    "the default, and --url picks another. On a terminal the URL and key are asked for; elsewhere pass\n" +
    "--with-token and the key on standard input. TRACKER_URL, TRACKER_API_KEY and TRACKER_WORKSPACE still\n" +
    "win over what is stored.\n\n" +
    "With --web no key is needed: a one-time code is shown and the browser opened (with $BROWSER where set)\n" +
    "on the server's page to enter it; you approve on the consent page, choosing the workspace, and the\n" +
    "access token is stored (renewed by itself while its refresh token lasts).",
  args: [],
  options: {
    withToken: { type: "boolean", description: "Read the API key from standard input" },
    web: { type: "boolean", description: "Log in in the browser with a one-time code (no key needed)" },
    access: {
      type: "string",
      value: "LEVEL",
      description: "With --web: read, write or admin (default), what the login may do",
      choices: ["read", "write", "admin"],
    },
    noBrowser: { type: "boolean", description: "With --web: print the page to open instead of opening it" },
  },
  api: false,
  examples: [
    "tracker auth login",
    "tracker auth login --web --url https://tracker.example.com",
    "echo $KEY | tracker auth login --url https://tracker.example.com --with-token",
    "tracker auth login --url http://localhost:3000 --workspace acme --with-token < key.txt",
  ],
});

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const { connection } = deps;
  let url = connection.baseUrl;
  if (
    (connection.urlSource === "default" || connection.urlSource === "config") &&
    deps.canPrompt &&
    !opts.withToken
  ) {
    url = normalizeUrl(
      await deps.prompt.input("Server URL", {
        default: connection.urlSource === "config" ? url : DEFAULT_URL,
      }),
    );
  }
  if (opts.web && opts.withToken) throw new UsageError("--web and --with-token cannot be used together");
  let apiKey: string;
  let oauth: Awaited<ReturnType<typeof deviceLogin>>["oauth"];
  if (opts.web)
    ({ accessToken: apiKey, oauth } = await deviceLogin(
      deps,
      url,
      opts.access ?? "admin",
      opts.noBrowser === true,
    ));
  else if (opts.withToken) apiKey = (await deps.readStdin()).trim();
  else if (deps.canPrompt) apiKey = (await deps.prompt.password("API key (trk_…)")).trim();
  else
    throw new UsageError(
      '--with-token is required without a terminal: echo "$KEY" | tracker auth login --with-token',
    );
  if (!apiKey) throw new UsageError("no API key given");

  const workspace =
    connection.workspace && connection.workspace !== deps.env.TRACKER_WORKSPACE
      ? connection.workspace
      : undefined;
  const tracker = await deps.makeTracker({ ...connection, baseUrl: url, apiKey, workspace });
  // Listing workspaces needs a valid key and no workspace, so it checks the key for every kind of key.
  const workspaces = await tracker.workspaces.list(deps.call);
  const me = await tracker.users
    .list(deps.call)
    .then((users) => users.find((u) => u.isMe))
    .catch(() => undefined);

  const config = deps.config.read();
  config.servers[url] = {
    apiKey,
    ...(oauth ? { oauth } : {}),
    ...(workspace ? { workspace } : {}),
    ...(me ? { user: me.email } : {}),
  };
  config.default = url;
  deps.config.write(config);

  if (opts.json) return printJson(deps, { url, user: me ?? null, workspaces, configFile: deps.config.file });
  const active = workspaces.find((w) => w.isActive);
  say(
    deps,
    `Logged in to ${url}${me ? ` as ${me.name} (${me.email})` : ""}` +
      `${workspace ? `, workspace ${workspace}` : active ? `, workspace ${active.slug}` : ""}.`,
  );
  if (workspaces.length > 1 && !workspace && !active) {
    say(
      deps,
      "The key reaches several workspaces: choose one with 'tracker workspaces use <slug>' or --workspace.",
    );
  }
  if (deps.env.TRACKER_API_KEY)
    say(deps, "Note: TRACKER_API_KEY is set, and wins over the stored key while it is.");
}
