import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { beforeAll, describe, expect, it } from "vitest";
import { connectClient } from "./test/connect.js";
import { useWorkspace } from "./test/workspace.js";
import { TOOLSET_NAMES } from "./toolsets.js";

// Resources, argument completion and prompts, as an MCP client sees them, against a real server.
const ws = useWorkspace();
let client: Client;

beforeAll(async () => {
  client = await connectClient(ws.sdk);
});

const textOfResource = (r: { contents: object[] }) => String((r.contents[0] as { text?: string }).text ?? "");

describe("resources", () => {
  it("reads an issue, a project, a document, a team and a team's issues as Markdown", async () => {
    const issue = await client.readResource({ uri: "tracker://issues/ENG-1" });
    expect(issue.contents[0]).toMatchObject({ uri: "tracker://issues/ENG-1", mimeType: "text/markdown" });
    expect(textOfResource(issue)).toMatch(
      /^ENG-1 \[Backlog\] P1 .* Login fails on Safari\nteam ENG · project "Launch"/,
    );

    const project = await client.readResource({ uri: "tracker://projects/Launch" });
    expect(textOfResource(project)).toMatch(/^Launch \[started\][\s\S]*Open issues by priority:/);

    const [doc] = await ws.sdk.documents.list({ q: "runbook" });
    const document = await client.readResource({ uri: `tracker://documents/${doc!.id}` });
    expect(textOfResource(document)).toMatch(/^Runbook · ENG[\s\S]*Restart the worker\./);

    const team = await client.readResource({ uri: "tracker://teams/ENG" });
    expect(textOfResource(team)).toMatch(/^ENG Engineering · cycles of 1 weeks\nStates: Backlog \(backlog\)/);
    expect(textOfResource(team)).toMatch(/Members: ada@example\.com, bob@example\.com$/m);

    const defects = await client.readResource({ uri: "tracker://labels/defect" });
    expect(
      textOfResource(defects)
        .split("\n")
        .map((l) => l.split(" ")[0]),
    ).toEqual(["ENG-7", "ENG-3", "people:"]);
    const inProgress = await client.readResource({ uri: "tracker://teams/ENG/states/In%20Progress" });
    expect(textOfResource(inProgress)).toMatch(/^ENG-5 \[In Progress\]/);
  });

  it("answers a missing resource with the protocol's not-found error and a way on", async () => {
    await expect(client.readResource({ uri: "tracker://issues/ENG-999" })).rejects.toThrow(
      /MCP error -32002: not_found: No issue "ENG-999"[\s\S]*search_issues/,
    );
    await expect(client.readResource({ uri: "tracker://projects/Nope" })).rejects.toThrow(
      /Projects: "Launch"/,
    );
  });

  it("lists my open issues, the projects, documents and teams", async () => {
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toEqual(
      expect.arrayContaining([
        "tracker://issues/ENG-1",
        "tracker://issues/ENG-5",
        "tracker://projects/Launch",
        "tracker://teams/ENG",
        "tracker://teams/OPS",
      ]),
    );
    expect(uris).not.toContain("tracker://issues/ENG-8"); // done
    expect(uris).not.toContain("tracker://issues/ENG-3"); // Bob's
  });
});

describe("argument completion", () => {
  const complete = async (uri: string, name: string, value: string, context?: Record<string, string>) =>
    (
      await client.complete({
        ref: { type: "ref/resource", uri },
        argument: { name, value },
        ...(context ? { context: { arguments: context } } : {}),
      })
    ).completion.values;

  it("completes team keys, identifiers, state names of the chosen team, labels and project names", async () => {
    expect(await complete("tracker://teams/{key}", "key", "o")).toEqual(["OPS"]);
    expect(await complete("tracker://issues/{identifier}", "identifier", "en")).toEqual(["ENG-"]);
    expect((await complete("tracker://issues/{identifier}", "identifier", "ENG-")).sort()).toEqual(
      ["ENG-1", "ENG-2", "ENG-3", "ENG-4", "ENG-5", "ENG-6", "ENG-7", "ENG-8"].sort(),
    );
    expect(await complete("tracker://issues/{identifier}", "identifier", "safari")).toEqual(["ENG-1"]);
    const teamState = "tracker://teams/{key}/states/{state}";
    expect(await complete(teamState, "state", "in", { key: "ENG" })).toEqual(["In Progress", "In Review"]);
    expect(await complete("tracker://labels/{name}", "name", "de")).toEqual(["defect"]);
    expect(await complete("tracker://projects/{name}", "name", "lau")).toEqual(["Launch"]);
  });

  it("completes prompt arguments", async () => {
    const teams = await client.complete({
      ref: { type: "ref/prompt", name: "triage" },
      argument: { name: "team", value: "E" },
    });
    expect(teams.completion.values).toEqual(["ENG"]);
    const projects = await client.complete({
      ref: { type: "ref/prompt", name: "project_update" },
      argument: { name: "project", value: "" },
    });
    expect(projects.completion.values).toEqual(["Launch"]);
  });
});

describe("prompts", () => {
  const promptText = async (name: string, args: Record<string, string> = {}) => {
    const got = await client.getPrompt({ name, arguments: args });
    const content = got.messages[0]!.content;
    return content.type === "text" ? content.text : "";
  };

  it("triage gives a team's untriaged and overdue work with its states and members", async () => {
    const text = await promptText("triage", { team: "eng" });
    expect(text).toMatch(/^Triage team ENG\./);
    expect(text).toMatch(/States of ENG: Backlog \(backlog\), Todo \(unstarted\)/);
    expect(text).toMatch(
      /Members \(assignee takes the email\): Ada Lovelace <ada@example\.com>, bob <bob@example\.com>$/m,
    );
    expect(text).toMatch(/Untriaged: open and unassigned, newest first:\n(ENG-\d+ .*\n)*ENG-2 /);
    expect(text).toMatch(/Overdue: open and past their due date, most overdue first:\nENG-1 .*\nENG-2 /);
  });

  it("standup gives my recent, current and blocked work and what others did", async () => {
    const text = await promptText("standup");
    expect(text).toMatch(/^Write my standup/);
    expect(text).toMatch(/In progress:\nENG-5 \[In Progress\]/);
  });

  it("project_update gives the project and the issues completed since its last update", async () => {
    const text = await promptText("project_update", { project: "Launch" });
    expect(text).toMatch(/^Draft the next status update of project "Launch"/);
    expect(text).toMatch(
      /Completed since the project started .*:\n {2}ENG-8 Ship release notes \(Ada Lovelace\)/,
    );
  });

  it("names only tools the session offers: a read-only triage asks for a plan instead of changes", async () => {
    const full = await promptText("triage", { team: "ENG" });
    expect(full).toMatch(/update_issues[\s\S]*comment_issue[\s\S]*relate_issues/);
    const readOnly = await connectClient(ws.sdk, { toolsets: TOOLSET_NAMES, readOnly: true });
    const got = await readOnly.getPrompt({ name: "triage", arguments: { team: "ENG" } });
    const text = got.messages[0]!.content.type === "text" ? got.messages[0]!.content.text : "";
    expect(text).toMatch(
      /^Triage team ENG\. This session can only read, so change nothing: for each issue below, propose/,
    );
    const offered = (await readOnly.listTools()).tools.map((t) => t.name);
    const named = [...text.matchAll(/\b[a-z]+_[a-z_]+\b/g)]
      .map((m) => m[0])
      .filter((w) => /_(issues?|update|labels?)$/.test(w));
    expect(named.filter((tool) => !offered.includes(tool))).toEqual([]);
    const update = await readOnly.getPrompt({ name: "project_update", arguments: { project: "Launch" } });
    const updateText = update.messages[0]!.content.type === "text" ? update.messages[0]!.content.text : "";
    expect(updateText).not.toContain("post_status_update");
  });

  it("fails with the choices when the team does not exist", async () => {
    await expect(client.getPrompt({ name: "triage", arguments: { team: "NOPE" } })).rejects.toThrow(
      /Team keys you can use: ENG, OPS/,
    );
  });
});
