import { describe, expect, it } from "vitest";
import { json, rows, useSession } from "../../test/binary.js";

// Teams, members, labels, docs, views, keys, invites, workspaces, the inbox and `api`: the built binary
// against a real server.
const s = useSession();
const tty = { TRACKER_FORCE_TTY: "1", NO_COLOR: "1", COLUMNS: "100" };

describe("tracker teams and members (real server, real binary)", () => {
  it("creates, views, edits, joins, lists members and workflow rules, and deletes teams", async () => {
    expect(
      (await s.run(["teams", "create", "--name", "Design", "--key", "DES", "--estimates", "tshirt"])).stdout,
    ).toBe("DES\n");
    expect(rows(await s.run(["teams", "list"]))).toEqual([
      ["DES", "Design", "Backlog,Todo,In Progress,In Review,Done,Canceled"],
      ["ENG", "Engineering", "Backlog,Todo,In Progress,In Review,Done,Canceled"],
    ]);
    const view = await s.run(["teams", "view", "DES"]);
    expect(view.stdout).toContain("estimates:\ttshirt\n");
    expect(view.stdout).toContain(`members:\t${s.user.email}\n`);
    expect((await s.run(["teams", "edit", "DES", "--cycles", "--cycle-weeks", "1"])).code).toBe(0);
    expect((await s.run(["teams", "view", "des", "--jq", ".cycleLengthWeeks"])).stdout).toBe("1\n");

    const member = await s.server.addMember(s.token, "member");
    expect(rows(await s.run(["teams", "members", "DES", "--add", member.email])).map((r) => r[1])).toEqual(
      expect.arrayContaining([member.email, s.user.email]),
    );
    expect(rows(await s.run(["teams", "members", "DES", "--remove", member.email])).map((r) => r[1])).toEqual(
      [s.user.email],
    );
    const joined = await s.run(["teams", "join", "DES"], { env: { TRACKER_API_KEY: member.token } });
    expect(joined).toMatchObject({ code: 0, stderr: "Joined DES\n" });
    expect(rows(await s.run(["teams", "list", "--all"], { env: { TRACKER_API_KEY: member.token } }))).toEqual(
      [
        ["DES", "Design", "joined"],
        ["ENG", "Engineering", ""],
      ],
    );

    const rule = await s.run(["teams", "workflows", "DES", "--set", "pr_merged=done"]);
    expect(rows(rule).map((r) => r.slice(0, 3))).toEqual([["pr_merged", "Done", ""]]);
    const badRule = await s.run(["teams", "workflows", "DES", "--set", "pr_merged=Shipped"]);
    expect(badRule).toMatchObject({ code: 1 });
    expect(badRule.stderr).toContain('no state "Shipped" in DES; states: Backlog, Todo');

    const guarded = await s.run(["teams", "delete", "DES"]);
    expect(guarded.code).toBe(2);
    expect(guarded.stderr).toContain(
      "--yes is required to delete team DES and every issue in it without a terminal",
    );
    const denied = await s.run(["teams", "delete", "DES", "--yes"], {
      env: { TRACKER_API_KEY: member.token },
    });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toMatch(/^admin_required: .*\nAsk an admin of the workspace to do it.\n$/);
    expect((await s.run(["teams", "delete", "DES", "--yes"])).stderr).toBe("Deleted team DES\n");
  });

  it("lists members and users, changes a role and removes a member", async () => {
    const guest = await s.server.addMember(s.token, "guest");
    const listed = await s.run(["members", "list"]);
    expect(rows(listed)).toContainEqual([guest.email.split("@")[0]!, guest.email, "guest"]);
    expect((await s.run(["users", "list", "--jq", ".[] | select(.isMe) | .email"])).stdout).toBe(
      `${s.user.email}\n`,
    );
    expect((await s.run(["members", "role", guest.email, "member"])).stderr).toBe(
      `${guest.email} is now a member\n`,
    );
    expect(
      json(
        await s.run([
          "members",
          "list",
          "--json",
          "email,role",
          "--jq",
          `.[] | select(.email == "${guest.email}")`,
        ]),
      ),
    ).toEqual({
      email: guest.email,
      role: "member",
    });
    const badRole = await s.run(["members", "role", guest.email, "owner"]);
    expect(badRole.code).toBe(2);
    expect((await s.run(["members", "remove", guest.email, "--yes"])).code).toBe(0);
    const gone = await s.run(["teams", "list"], { env: { TRACKER_API_KEY: guest.token } });
    expect(gone.code).toBe(1);
    const lastAdmin = await s.run(["members", "role", "me", "member"]);
    expect(lastAdmin.code).toBe(1);
    expect(lastAdmin.stderr).toMatch(/^last_admin: /);
  });
});

describe("tracker labels, docs, views and view defaults (real server, real binary)", () => {
  it("creates, lists with counts, renames, merges and deletes labels", async () => {
    await s.run(["issues", "create", "-t", "ENG", "--title", "One", "-l", "defect"]);
    await s.run(["issues", "create", "-t", "ENG", "--title", "Two", "-l", "bug,defect"]);
    expect(
      (await s.run(["labels", "create", "wontfix", "--color", "#123456", "--description", "Not doing it"]))
        .code,
    ).toBe(0);
    expect(rows(await s.run(["labels", "list"]))).toEqual([
      ["bug", "#bec2c8", "1", "1", ""],
      ["defect", "#bec2c8", "2", "2", ""],
      ["wontfix", "#123456", "0", "0", "Not doing it"],
    ]);
    const table = await s.run(["labels", "list"], { env: tty });
    expect(table.stdout.split("\n")[0]).toMatch(/^NAME\s+COLOR\s+ISSUES\s+OPEN\s+DESCRIPTION$/);
    expect((await s.run(["labels", "rename", "defect", "flaw"])).stderr).toBe("Renamed defect to flaw\n");
    const merged = await s.run(["labels", "merge", "flaw", "--into", "bug"]);
    expect(merged.stderr).toBe("Merged flaw into bug: 1 issue moved, 1 already had both\n");
    expect((await s.run(["labels", "delete", "wontfix", "--yes"])).stderr).toBe("Deleted label wontfix\n");
    expect((await s.run(["labels", "list", "--jq", "[.[].name]"])).stdout).toBe('["bug"]\n');
    const member = await s.server.addMember(s.token, "member");
    const uncounted = await s.run(["labels", "list", "--json"], { env: { TRACKER_API_KEY: member.token } });
    expect(json<{ name: string; issueCount?: number }[]>(uncounted)).toEqual([
      expect.objectContaining({ name: "bug" }),
    ]);
    expect(json<{ issueCount?: number }[]>(uncounted)[0]!.issueCount).toBeUndefined();
  });

  it("writes documents from stdin and files, finds them by title, and deletes them", async () => {
    const created = await s.run(
      [
        "docs",
        "create",
        "--team",
        "ENG",
        "--title",
        "Deploy runbook",
        "--content-file",
        "-",
        "--issue",
        "ENG-1",
      ],
      {
        input: "# Deploy\n\nRun the script.\n",
      },
    );
    expect(created.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    const id = created.stdout.trim();
    expect(rows(await s.run(["docs", "list", "-q", "script"])).map((r) => r.slice(0, 4))).toEqual([
      [id, "Deploy runbook", "ENG", "ENG-1"],
    ]);
    expect((await s.run(["docs", "view", "deploy runbook", "--raw"])).stdout).toBe(
      "# Deploy\n\nRun the script.\n",
    );
    const piped = await s.run(["docs", "view", id]);
    expect(piped.stdout).toContain("title:\tDeploy runbook\n");
    expect(piped.stdout).toContain("--\n# Deploy\n");
    expect(
      (await s.run(["docs", "edit", "Deploy runbook", "--content", "Use the button.", "--issue", "none"]))
        .stdout,
    ).toBe(`${id}\n`);
    expect(json(await s.run(["docs", "view", id, "--json", "content,issues"]))).toEqual({
      content: "Use the button.",
      issues: [],
    });
    const missing = await s.run(["docs", "view", "No such doc"]);
    expect(missing).toMatchObject({ code: 1, stderr: 'no document titled "No such doc"\n' });
    expect((await s.run(["docs", "delete", id, "--yes"])).code).toBe(0);
    expect((await s.run(["docs", "list"])).stdout).toBe("");
  });

  it("saves, edits and deletes views, and sets and removes view defaults", async () => {
    const created = await s.run([
      "views",
      "create",
      "--name",
      "Urgent",
      "--filter",
      "stateType=backlog,unstarted",
      "--sort",
      "-priority",
      "--favorite",
    ]);
    expect(created.code).toBe(0);
    const listed = await s.run(["views", "list"]);
    expect(rows(listed)[0]!.slice(0, 5)).toEqual([
      "Urgent",
      "issues",
      "",
      '{"stateType":["backlog","unstarted"]}',
      "-priority",
    ]);
    const table = await s.run(["views", "list"], { env: tty });
    expect(table.stdout).toContain("★ Urgent");
    expect(table.stdout).toContain("stateType=backlog,unstarted");
    expect((await s.run(["views", "edit", "urgent", "--name", "Open", "--unfavorite"])).code).toBe(0);
    expect(json(await s.run(["views", "list", "--json", "name,favorite"]))).toEqual([
      { name: "Open", favorite: false },
    ]);
    const bad = await s.run(["views", "create", "--name", "Bad", "--filter", "colour=red"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^invalid_request: /);
    expect((await s.run(["views", "delete", "Open", "--yes"])).stderr).toBe('Deleted view "Open"\n');

    const set = await s.run([
      "view-defaults",
      "set",
      "issues:team:ENG",
      "--sort",
      "-updated",
      "--display",
      "board",
      "--hidden",
      "estimate,labels",
    ]);
    expect(set.stderr).toBe("Set the user defaults of issues:team:ENG\n");
    expect(rows(await s.run(["view-defaults", "list"]))).toEqual([
      ["issues:team:ENG", "user", "{}", "-updated", "board", "", "estimate,labels"],
    ]);
    expect((await s.run(["view-defaults", "delete", "issues:team:ENG"])).code).toBe(0);
    const again = await s.run(["view-defaults", "delete", "issues:team:ENG"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^not_found: /);
  });
});

describe("tracker keys, invites, workspaces, inbox and api (real server, real binary)", () => {
  it("creates a key that works, lists and revokes it", async () => {
    const created = await s.run(["keys", "create", "--name", "ci"]);
    const token = created.stdout.trim();
    expect(token).toMatch(/^trk_/);
    expect((await s.run(["users", "list"], { env: { TRACKER_API_KEY: token } })).code).toBe(0);
    const id = json<{ id: string; name: string }[]>(await s.run(["keys", "list", "--json"])).find(
      (k) => k.name === "ci",
    )!.id;
    expect(rows(await s.run(["keys", "list"])).map((r) => r.slice(1, 3))).toContainEqual(["ci", "workspace"]);
    expect((await s.run(["keys", "delete", id, "--yes"])).stderr).toBe(`Deleted key ${id}\n`);
    const revoked = await s.run(["users", "list"], { env: { TRACKER_API_KEY: token } });
    expect(revoked.code).toBe(4);
    expect(revoked.stderr).toContain("unauthenticated:");
  });

  it("invites someone, who accepts the link and is logged in by it", async () => {
    const link = (
      await s.run(["invites", "create", "--email", "grace@example.com", "--role", "member"])
    ).stdout.trim();
    expect(link).toMatch(/\/invite\/[^/]+$/);
    expect(rows(await s.run(["invites", "list"])).map((r) => r.slice(0, 2))).toEqual([
      ["grace@example.com", "member"],
    ]);
    const graceHome = `${s.configHome}/grace`;
    const accepted = await s.run(
      ["invites", "accept", link.replace(/^https?:\/\/[^/]+/, s.server.url), "--name", "Grace Hopper"],
      {
        env: { TRACKER_API_KEY: undefined, TRACKER_URL: undefined, XDG_CONFIG_HOME: graceHome },
      },
    );
    expect(accepted.stderr).toBe(
      `Joined ${s.workspace.name} as grace@example.com; logged in to ${s.server.url}.\n`,
    );
    const asGrace = await s.run(["users", "list", "--jq", ".[] | select(.isMe) | .name"], {
      env: { TRACKER_API_KEY: undefined, TRACKER_URL: undefined, XDG_CONFIG_HOME: graceHome },
    });
    expect(asGrace.stdout).toBe("Grace Hopper\n");
    await s.run(["invites", "create", "--email", "linus@example.com"]);
    expect((await s.run(["invites", "delete", "linus@example.com", "--yes"])).stderr).toBe(
      "Revoked the invite for linus@example.com\n",
    );
    expect((await s.run(["invites", "list"])).stdout).toBe("");
  });

  it("creates, uses and renames workspaces, and names the choices when one is needed", async () => {
    expect(
      (await s.run(["workspaces", "create", "--name", "Second Works", "--slug", "second-works"])).stdout,
    ).toBe("second-works\n");
    const listed = rows(await s.run(["workspaces", "list"]));
    expect(listed).toHaveLength(2);
    expect(listed).toContainEqual(["*", "second-works", "Second Works", "admin"]);
    expect(listed).toContainEqual(["", s.workspace.slug, s.workspace.name, "admin"]);
    expect((await s.run(["workspaces", "use", s.workspace.slug])).stderr).toBe(
      `Now using ${s.workspace.name} (${s.workspace.slug})\n`,
    );
    expect((await s.run(["-w", "second-works", "workspaces", "rename", "Second Co"])).code).toBe(0);
    expect((await s.run(["workspaces", "list", "--jq", "[.[].name] | sort | .[]"])).stdout).toBe(
      `Second Co\n${s.workspace.name}\n`,
    );
  });

  it("shows what others did on your issues in the inbox", async () => {
    const other = await s.server.addMember(s.token, "member");
    await s.run(["issues", "comment", "ENG-1", "--body", "I can reproduce it"], {
      env: { TRACKER_API_KEY: other.token },
    });
    const inbox = await s.run(["inbox"]);
    expect(rows(inbox).map((r) => r.slice(1, 4))).toContainEqual([
      "ENG-1",
      other.email.split("@")[0],
      "commented: I can reproduce it",
    ]);
    expect((await s.run(["inbox", "--since", "1d", "--jq", ".[0].type"])).stdout).toBe("comment_added\n");
    const badSince = await s.run(["inbox", "--since", "yesterday-ish"]);
    expect(badSince.code).toBe(2);
  });

  it("makes raw API calls with fields or a JSON body from stdin", async () => {
    const created = await s.run(["api", "POST", "/labels", "--input", "-", "--jq", ".label.name"], {
      input: '{"name":"from-api"}',
    });
    expect(created).toMatchObject({ code: 0, stdout: "from-api\n" });
    const listed = await s.run(["api", "GET", "/issues", "-F", "limit=1", "--jq", ".issues | length"]);
    expect(listed.stdout).toBe("1\n");
    const missing = await s.run(["api", "GET", "/issues/ENG-999"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^not_found: /);
  });
});
