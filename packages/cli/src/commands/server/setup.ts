import { spawn } from "node:child_process";
import { CommandError, type Deps, defineCommand, type Opts, required } from "../../command.js";
import { printJson, say } from "../../output.js";
import { defaultDataDir, serverScript } from "./locate.js";

export const spec = defineCommand({
  summary: "Create the first workspace, its admin and an account key, and log in with it",
  description:
    "Runs the reference server's own setup on its database (DATABASE_URL, or the embedded one in\n" +
    "--data-dir; stop a running embedded server first). The key is stored as your login for --url\n" +
    "(default http://localhost:3000) unless --no-login, when it is printed instead.",
  args: [],
  options: {
    name: { type: "string", short: "n", value: "NAME", description: "The admin's name (required)" },
    email: { type: "string", short: "e", value: "EMAIL", description: "The admin's email (required)" },
    workspaceName: { type: "string", value: "NAME", description: "The workspace's name (required)" },
    slug: { type: "string", value: "SLUG", description: "The workspace's URL name (default: from its name)" },
    dataDir: { type: "string", value: "DIR", description: "Folder of the embedded database" },
    noLogin: { type: "boolean", description: "Print the key instead of logging in with it" },
    passwordStdin: {
      type: "boolean",
      description: "Read the admin's password (10 to 256 characters) from the first line of standard input",
    },
  },
  api: false,
  examples: [
    'tracker server setup --workspace-name "Acme" --email ada@acme.test --name "Ada Lovelace"',
    'printf %s "$ADMIN_PASSWORD" | tracker server setup --workspace-name Acme --email ada@acme.test --name Ada --password-stdin',
  ],
});

interface SetupResult {
  workspace: { id: string; name: string; slug: string };
  user: { id: string; name: string; email: string };
  apiKey: { token: string };
}

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const workspace = await required(deps, "workspace-name", opts.workspaceName, () =>
    deps.prompt.input("Workspace name"),
  );
  const name = await required(deps, "name", opts.name, () => deps.prompt.input("Your name"));
  const email = await required(deps, "email", opts.email, () => deps.prompt.input("Your email"));
  const { dir, args } = serverScript("setup");
  const env: Record<string, string | undefined> = { ...deps.env };
  if (!env.DATABASE_URL)
    env.TRACKER_DATA_DIR = opts.dataDir ?? env.TRACKER_DATA_DIR ?? defaultDataDir(deps.env);
  const setupArgs = [
    "--workspace",
    workspace,
    "--email",
    email,
    "--name",
    name,
    ...(opts.slug ? ["--slug", opts.slug] : []),
    ...(opts.passwordStdin ? ["--password-stdin"] : []),
  ];
  const child = spawn(process.execPath, [...args, ...setupArgs], {
    cwd: dir,
    env,
    // The password, when asked for, is read by the server's setup from this command's own input.
    stdio: [opts.passwordStdin ? "inherit" : "ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk;
  });
  child.stderr.on("data", (chunk: Buffer) => {
    err += chunk;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", resolve);
  });
  if (code !== 0) throw new CommandError(err.trim() || `setup stopped with exit code ${code}`);
  const result = JSON.parse(out) as SetupResult;

  const url = deps.connection.baseUrl;
  if (!opts.noLogin) {
    const config = deps.config.read();
    config.servers[url] = {
      apiKey: result.apiKey.token,
      workspace: result.workspace.slug,
      user: result.user.email,
    };
    config.default = url;
    deps.config.write(config);
  }
  if (opts.json) return printJson(deps, result);
  say(
    deps,
    `Created workspace ${result.workspace.name} (${result.workspace.slug}) with admin ${result.user.name} <${result.user.email}>.`,
  );
  if (opts.passwordStdin) say(deps, `${result.user.email} signs in on the board with that password.`);
  if (opts.noLogin) {
    say(deps, "Its account key, shown only now:");
    deps.stdout.write(`${result.apiKey.token}\n`);
  } else {
    say(
      deps,
      `Logged in to ${url} with its account key. Next: 'tracker server start', then 'tracker teams create'.`,
    );
  }
}
