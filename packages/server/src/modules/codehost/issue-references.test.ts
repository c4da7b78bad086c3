import { describe, expect, it } from "vitest";
import { branchName } from "./branch-name.js";
import { magicWordReferences, mentionedIdentifiers, pullRequestReferences } from "./issue-references.js";

describe("identifiers in branch names and titles", () => {
  it("finds them in any case, standing alone", () => {
    expect(mentionedIdentifiers("eng-123-fix-login")).toEqual(["ENG-123"]);
    expect(mentionedIdentifiers("ada/eng-123")).toEqual(["ENG-123"]);
    expect(mentionedIdentifiers("[ENG-7] Fix it, see OPS-2")).toEqual(["ENG-7", "OPS-2"]);
    expect(mentionedIdentifiers("XENGINEER-1 and ENG-1234x and eng-0")).toEqual([]);
    expect(mentionedIdentifiers("feature/eng-42_fix")).toEqual(["ENG-42"]);
  });
});

describe("magic words", () => {
  it("closing words close, linking words only link, bare mentions do nothing", () => {
    expect(
      magicWordReferences(
        "Fixes ENG-1, ENG-2 and eng-3.\nPart of OPS-4\nRelated to: OPS-5\nSee ENG-9\nresolves #ENG-6",
      ),
    ).toEqual([
      { identifier: "ENG-1", kind: "closes" },
      { identifier: "ENG-2", kind: "closes" },
      { identifier: "ENG-3", kind: "closes" },
      { identifier: "OPS-4", kind: "related" },
      { identifier: "OPS-5", kind: "related" },
      { identifier: "ENG-6", kind: "closes" },
    ]);
  });

  it("a PR's branch or title closes over a link-only mention in its body", () => {
    expect(
      pullRequestReferences({ branch: "eng-1-x", title: "Work", body: "Part of ENG-1\nRef ENG-2" }),
    ).toEqual([
      { identifier: "ENG-1", kind: "closes" },
      { identifier: "ENG-2", kind: "related" },
    ]);
  });
});

describe("branchName", () => {
  it("is the lowercase identifier and a slug of the title, bounded", () => {
    expect(branchName("ENG-123", "Fix login crash!")).toBe("eng-123-fix-login-crash");
    expect(branchName("ENG-1", "Café au lait — ümlaut")).toBe("eng-1-cafe-au-lait-umlaut");
    expect(branchName("ENG-2", "!!!")).toBe("eng-2");
    const long = branchName(
      "ENG-3",
      "a very long title that goes on and on about many different things at once",
    );
    expect(long.length).toBeLessThanOrEqual(60);
    expect(long).toMatch(/^eng-3-a-very-long-title-.*[a-z]$/);
  });
});
