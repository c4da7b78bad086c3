import { describe, expect, it } from "vitest";
import { useTestServer } from "../test/harness.js";

const srv = useTestServer();

describe("statements and their values", () => {
  it("keeps text full of quotes, question marks and backslashes exactly as sent", async () => {
    const { apiKey } = await srv.bootstrap({ team: { key: "ENG", name: "Engineering" } });
    const api = srv.client(apiKey.token);
    const title = `Why "doesn't" it? ?? $1 \\ C:\\temp -- ; drop table issues`;
    const description = "? ?| ?& '' \\' $$ $2";
    const created = await api.POST("/issues", { body: { team: "ENG", title, description } });
    expect(created.response.status).toBe(201);
    const identifier = created.data!.issue.identifier;
    const read = await api.GET("/issues/{identifier}", { params: { path: { identifier } } });
    expect(read.data!.issue).toMatchObject({ title, description });
    const listed = await api.GET("/issues", { params: { query: { q: "doesn't temp" } } });
    expect(listed.data!.issues.map((i) => i.title)).toEqual([title]);
  });

  it("answers every read correctly after reads have switched to a cached plan", async () => {
    const { apiKey } = await srv.bootstrap({ team: { key: "OPS", name: "Operations" } });
    const api = srv.client(apiKey.token);
    const titles = Array.from({ length: 8 }, (_, i) => `Prepared ${i}`);
    const identifiers: string[] = [];
    for (const title of titles) {
      identifiers.push((await api.POST("/issues", { body: { team: "OPS", title } })).data!.issue.identifier);
    }
    // Each connection plans a prepared statement for its first few runs, then may reuse one generic plan.
    for (let round = 0; round < 4; round++) {
      const reads = await Promise.all(
        identifiers.map((identifier) =>
          api.GET("/issues/{identifier}", { params: { path: { identifier } } }),
        ),
      );
      expect(reads.map((r) => r.data!.issue.title)).toEqual(titles);
      const pages = await Promise.all(
        identifiers.map((identifier) =>
          api.GET("/issues/{identifier}/page-data", { params: { path: { identifier } } }),
        ),
      );
      expect(pages.map((r) => r.data!.issue.title)).toEqual(titles);
    }
    const missing = await api.GET("/issues/{identifier}", { params: { path: { identifier: "OPS-999" } } });
    expect(missing.response.status).toBe(404);
  });
});
