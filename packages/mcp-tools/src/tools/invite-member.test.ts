import { createTracker } from "@tracker/sdk";
import { describe, expect, it } from "vitest";
import { connectClient } from "../test/connect.js";
import { useTools } from "../test/tools.js";

const { ws, call } = useTools();

describe("invite_member", () => {
  it("invites by email and answers the link, which makes them a member when accepted", async () => {
    const invited = await call<{ invite: { url: string; role: string } }>("invite_member", {
      email: "sam@acme.test",
      role: "guest",
    });
    expect(invited.text).toMatch(
      /^Invited sam@acme\.test as guest\.\nLink, shown once: http\S+\/invite\/\S+\nThey join when they open it; only then can manage_team_members add them to a team\.$/,
    );
    const token = new URL(invited.data.invite.url).pathname.split("/").pop()!;
    await createTracker({ baseUrl: ws.url, apiKey: "", workspace: "" }).invites.accept({
      token,
      name: "Sam",
    });
    expect((await ws.sdk.users.list()).find((u) => u.email === "sam@acme.test")?.role).toBe("guest");
  });

  it("says when an invite replaces an earlier one, and when the person is already a member", async () => {
    await call("invite_member", { email: "kim@acme.test" });
    expect((await call("invite_member", { email: "kim@acme.test", role: "admin" })).text).toMatch(
      /^Invited kim@acme\.test as admin \(their earlier invite link no longer works\)\./,
    );
    const member = await call("invite_member", { email: "bob@example.com" });
    expect(member.isError).toBe(true);
    expect(member.text).toMatch(/^bob@example\.com is already a member of this workspace/);
  });

  it("is not offered to a key that is not an admin", async () => {
    const asBob = await connectClient(ws.as(ws.bob.token), { toolsets: ["people"], role: "member" });
    // enable_toolset comes with it (other toolsets are off), and cannot bring invite_member in either.
    expect((await asBob.listTools()).tools.map((t) => t.name)).toEqual([
      "manage_team_members",
      "enable_toolset",
    ]);
    await asBob.callTool({ name: "enable_toolset", arguments: { toolset: "people" } });
    expect((await asBob.listTools()).tools.map((t) => t.name)).not.toContain("invite_member");
  });
});
