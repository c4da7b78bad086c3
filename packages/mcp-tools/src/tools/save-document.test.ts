import { describe, expect, it } from "vitest";
import { useTools } from "../test/tools.js";

const { ws, call } = useTools();

describe("save_document", () => {
  it("changes a document's content, and says what a create needs", async () => {
    expect(
      (
        await call("save_document", {
          document: "Runbook",
          content: "# Runbook\n\nRestart the worker, then the queue.",
        })
      ).text,
    ).toMatch(/^Saved Runbook · ENG/);
    const [doc] = await ws.sdk.documents.list();
    expect((await ws.sdk.documents.get(doc!.id)).content).toBe(
      "# Runbook\n\nRestart the worker, then the queue.",
    );
    const bad = await call("save_document", { title: "Orphan" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/^To create a document give `title` and `team`/);
  });
});
