import { openAsBlob } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";

/**
 * A file on disk as `IssuesApi.attach` takes it: a `Blob` read from the file as it is sent (never whole
 * in memory), and the file's name.
 *
 * @example
 * import { fileFromPath } from "@tracker/sdk/node";
 * const { data, filename } = await fileFromPath("shot.png");
 * await tracker.issues.attach("ENG-1", data, { filename });
 */
export async function fileFromPath(file: string): Promise<{ data: Blob; filename: string }> {
  // Node's own error names no file ("Unable to open file as blob"): stat's names it.
  if (!(await stat(file)).isFile()) throw new Error(`${file} is not a file`);
  return { data: await openAsBlob(file), filename: path.basename(file) };
}
