import { fakeTracker } from "@tracker/sdk/testing";
import { describe, expect, it } from "vitest";
import { connectClient } from "./test/connect.js";
import { ALL_TOOLS, DEFAULT_TOOLSETS, TOOLSET_NAMES, TOOLSETS } from "./toolsets.js";

// What a deployment offers: toolsets, single tools, exclusions, read-only, the key's role, and the
// instructions that name what is left out. Listing calls no API.
const noApi = () =>
  fakeTracker(() => {
    throw new Error("listing must not call the API");
  }).tracker;
const names = async (options: Parameters<typeof connectClient>[1]) =>
  (await (await connectClient(noApi(), options)).listTools()).tools.map((t) => t.name);

describe("what a deployment offers", () => {
  it("offers only reads in read-only mode", async () => {
    const offered = await names({ toolsets: TOOLSET_NAMES, readOnly: true });
    expect(offered).toContain("search_issues");
    expect(offered).not.toContain("create_issue");
    expect(offered.every((n) => /^(search|get|list|whoami)/.test(n))).toBe(true);
  });

  it("offers single tools on their own or on top of toolsets, and never an excluded one", async () => {
    // enable_toolset comes last whenever a toolset is off: the tool list itself says what else exists.
    expect(await names({ tools: ["get_issue", "list_cycles"] })).toEqual([
      "get_issue",
      "list_cycles",
      "enable_toolset",
    ]);
    expect(await names({ toolsets: ["docs"], tools: ["whoami"] })).toEqual([
      "whoami",
      "search_documents",
      "get_document",
      "save_document",
      "attach_file",
      "enable_toolset",
    ]);
    expect(await names({ toolsets: ["docs"], excludeTools: ["save_document"] })).toEqual([
      "search_documents",
      "get_document",
      "attach_file",
      "enable_toolset",
    ]);
  });

  it("offers a guest or a member no tool its role may not call", async () => {
    const all = ALL_TOOLS.map((t) => t.name);
    expect(await names({ toolsets: TOOLSET_NAMES, role: "admin" })).toEqual(all);
    const member = await names({ toolsets: TOOLSET_NAMES, role: "member" });
    expect(all.filter((n) => !member.includes(n))).toEqual([
      "invite_member",
      "list_webhooks",
      "manage_webhooks",
    ]);
    const guest = await names({ toolsets: TOOLSET_NAMES, role: "guest" });
    expect(all.filter((n) => !guest.includes(n))).toEqual([
      "save_initiative",
      "create_cycle",
      "post_status_update",
      "invite_member",
      "manage_team_members",
      "manage_labels",
      "manage_workflow_states",
      "list_webhooks",
      "manage_webhooks",
    ]);
  });

  it("tells an agent with the default tools which toolsets exist beside them, in few words", async () => {
    const client = await connectClient(noApi());
    const instructions = client.getInstructions() ?? "";
    const more = instructions.slice(instructions.indexOf(" Off until"));
    expect(more).toBe(
      " Off until enable_toolset turns them on: planning (projects, initiatives, cycles, status updates); " +
        "docs (documents, file attachments); people (invites, team membership); inbox (notifications); " +
        `agents (agent sessions); admin (${TOOLSETS.admin.short}).`,
    );
    expect(Math.ceil(Buffer.byteLength(more) / 4)).toBeLessThan(80);
    expect(DEFAULT_TOOLSETS).toEqual(["issues", "context"]);
    const dynamic = (await connectClient(noApi(), { dynamic: true })).getInstructions() ?? "";
    expect(dynamic).toMatch(/ Off until enable_toolset turns them on: issues \(issues\); context \(/);
    const everything = (await connectClient(noApi(), { toolsets: TOOLSET_NAMES })).getInstructions() ?? "";
    expect(everything).not.toMatch(/Off until/);
    // A read-only deployment names no toolset it could not offer anyway: people has no read, admin has
    // list_webhooks.
    const reads = (await connectClient(noApi(), { readOnly: true })).getInstructions() ?? "";
    expect(reads).toMatch(
      /Off until enable_toolset turns them on: planning \(.*\); docs \(documents[^)]*\); agents \(agent sessions\); admin \(.*webhooks.*\)\.$/,
    );
    expect(Object.keys(TOOLSETS)).toEqual(TOOLSET_NAMES);
  });
});
