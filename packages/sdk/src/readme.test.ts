// The README's examples, compiled as a user's project compiles them: against the built package (its
// `exports`, `typesVersions` and `.d.ts` files, through node_modules), under the strictest settings a
// user may have (`exactOptionalPropertyTypes`, `noUncheckedIndexedAccess`) and with each module
// resolution a project may use, `node10` included (for `@tracker/sdk/schema`).
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";

const sdkDir = fileURLToPath(new URL("..", import.meta.url));
const repoModules = fileURLToPath(new URL("../../../node_modules", import.meta.url));

/** The README's `ts` blocks as one module: imports hoisted, each block's statements in a function of its own. */
function readmeModule(): string {
  const readme = readFileSync(path.join(sdkDir, "README.md"), "utf8");
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const imports = new Set<string>();
  const bodies = blocks.map((block, i) => {
    const body = block.replace(/^import [\s\S]*?;\n/gm, (line) => {
      imports.add(line.trim());
      return "";
    });
    return `export async function example${i + 1}() {\n${body}}\n`;
  });
  return [
    ...imports,
    // What the examples take as given: a client made earlier, the rows of an import, a trace context.
    'declare const tracker: import("@tracker/sdk").Tracker;',
    "declare const rows: { id: string; title: string }[];",
    "declare function refetchEverything(): Promise<void>;",
    "declare function currentTraceparent(): string;",
    ...bodies,
  ].join("\n");
}

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A project with the package installed (a link, as npm links a workspace) and `source` as its one file. */
function project(source: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "tracker-sdk-readme-"));
  made.push(dir);
  mkdirSync(path.join(dir, "node_modules", "@tracker"), { recursive: true });
  symlinkSync(sdkDir, path.join(dir, "node_modules", "@tracker", "sdk"), "dir");
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));
  writeFileSync(path.join(dir, "main.ts"), source);
  return dir;
}

function diagnostics(dir: string, resolution: "node10" | "nodenext" | "bundler"): string[] {
  const options: ts.CompilerOptions = {
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2023.d.ts"],
    types: ["node"],
    typeRoots: [path.join(repoModules, "@types")],
    skipLibCheck: true,
    ...(resolution === "node10"
      ? { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Node10 }
      : resolution === "bundler"
        ? { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler }
        : { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext }),
  };
  const program = ts.createProgram([path.join(dir, "main.ts")], options);
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) =>
        `${d.file ? path.basename(d.file.fileName) : ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`,
    );
}

describe("the README's examples", () => {
  it("compile against the built package under exactOptionalPropertyTypes, with every module resolution", {
    timeout: 120_000,
  }, () => {
    if (!existsSync(path.join(sdkDir, "dist", "index.d.ts")))
      throw new Error(
        "packages/sdk/dist is missing: build the SDK first (npx turbo run build --filter=@tracker/sdk)",
      );
    const source = `${readmeModule()}
import type { components, paths } from "@tracker/sdk/schema";
export type Checked = [components["schemas"]["Issue"], paths["/issues"]];
`;
    const dir = project(source);
    for (const resolution of ["nodenext", "bundler", "node10"] as const)
      expect(diagnostics(dir, resolution), resolution).toEqual([]);
  });
});
