import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";
import { TOOLSETS } from "../toolsets.js";

const { call, client } = useTools({ dynamic: true });

describe("enable_toolset", () => {
  it("turns a toolset on, telling the client the list changed, and refuses an unknown one", async () => {
    let changed = 0;
    client().setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed++;
    });
    expect((await client().listTools()).tools.map((t) => t.name)).toEqual([
      "list_toolsets",
      "enable_toolset",
    ]);
    const enabled = await call("enable_toolset", { toolset: "planning" });
    expect(enabled.text).toBe(`Enabled planning: ${TOOLSETS.planning.tools.map((t) => t.name).join(", ")}.`);
    await expect.poll(() => changed).toBe(1);
    const names = (await client().listTools()).tools.map((t) => t.name);
    expect(names).toEqual(["list_toolsets", "enable_toolset", ...TOOLSETS.planning.tools.map((t) => t.name)]);
    expect((await call("list_projects", {})).text).toMatch(/^Launch \[started\]/);
    const bad = await call("enable_toolset", { toolset: "everything" });
    expect(bad.isError).toBe(true);
  });
});
