import { describe, expect, it } from "vitest";
import { useTestServer } from "../../test/harness.js";

describe("POST /dev/reseed in development mode", () => {
  const srv = useTestServer({ nodeEnv: "development" });

  it("replaces the caller's demo workspace and returns a working key", async () => {
    const { apiKey, user } = await srv.bootstrap();
    const first = await srv.client(apiKey.token).POST("/dev/reseed");
    expect(first.response.status).toBe(200);
    expect(first.data).toMatchObject({ workspace: { slug: "demo", name: "Demo" }, teamKey: "ENG" });
    const demo = srv.client(first.data!.apiKey);
    const users = await demo.GET("/users");
    expect(users.response.headers.get("x-service-workspace")).toBe("demo");
    expect(users.data!.users).toEqual([expect.objectContaining({ id: user.id, role: "admin", isMe: true })]);

    const second = await demo.POST("/dev/reseed");
    expect(second.data!.workspace.slug).toBe("demo");
    expect(second.data!.workspace.id).not.toBe(first.data!.workspace.id);
    expect(await srv.query("select 1 from workspaces where id = $1", [first.data!.workspace.id])).toEqual([]);
  });

  it("is admin only", async () => {
    const { apiKey } = await srv.bootstrap();
    const member = await srv.addMember(apiKey.token, "member");
    const res = await srv.client(member.token).POST("/dev/reseed");
    expect(res.response.status).toBe(403);
    expect(res.error!.code).toBe("admin_required");
  });
});

describe("POST /dev/reseed outside development mode", () => {
  const srv = useTestServer({ nodeEnv: "production" });

  it("answers 404 as if it did not exist", async () => {
    const { apiKey } = await srv.bootstrap();
    const before = await srv.query("select count(*)::int as n from workspaces");
    const res = await srv.client(apiKey.token).POST("/dev/reseed");
    expect(res.response.status).toBe(404);
    expect(res.error!.code).toBe("not_found");
    expect(await srv.query("select count(*)::int as n from workspaces")).toEqual(before);
  });
});
