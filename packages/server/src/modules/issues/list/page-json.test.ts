import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { contractFile } from "../../../config.js";
import { ISSUE_OWN_JSON_SQL, ISSUE_PAGE_FIELDS } from "./page-json.js";

interface ObjectSchema {
  required?: string[];
  properties: Record<string, unknown>;
}

const contract = parse(readFileSync(contractFile, "utf8")) as {
  components: { schemas: Record<string, ObjectSchema> };
};
const issueSchema = contract.components.schemas.Issue!;

describe("the list page's Issue fields", () => {
  it("are the contract's Issue properties, every one required, in the contract's order", () => {
    const fields = Object.keys(ISSUE_PAGE_FIELDS);
    expect(fields).toEqual(Object.keys(issueSchema.properties));
    expect([...fields].sort()).toEqual([...(issueSchema.required ?? [])].sort());
  });

  it("read the issue's own fields in one JSON text, in the list's order", () => {
    expect(ISSUE_OWN_JSON_SQL).toMatch(/^'"title":' \|\| /);
    const names = [...ISSUE_OWN_JSON_SQL.matchAll(/'[,]?"(\w+)":'/g)].map((m) => m[1]);
    expect(names).toEqual(["title", "description", "priority", "estimate", "dueDate", "delegate"]);
  });
});
