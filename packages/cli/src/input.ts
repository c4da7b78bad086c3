import { readFileSync } from "node:fs";
import { type Deps, UsageError } from "./command.js";

/**
 * Text given inline (`--body TEXT`), from a file (`--body-file FILE`, `-` for standard input) or written
 * in `$EDITOR` (`--editor`), as gh takes it. More than one is a usage error; none is `undefined`.
 */
export async function textFrom(
  deps: Deps,
  inline: { flag: string; value: string | undefined },
  file: { flag: string; value: string | undefined },
  editor?: { value: boolean | undefined; what: string; initial?: string | undefined },
): Promise<string | undefined> {
  const given = [inline.value !== undefined, file.value !== undefined, editor?.value === true];
  if (given.filter(Boolean).length > 1) {
    throw new UsageError(`give one of --${inline.flag}, --${file.flag}${editor ? " or --editor" : ""}`);
  }
  if (editor?.value) {
    const { editText } = await import("./editor.js");
    return editText(deps, editor.what, editor.initial);
  }
  if (inline.value !== undefined) return inline.value;
  if (file.value === undefined) return undefined;
  if (file.value === "-") return deps.readStdin();
  try {
    return readFileSync(file.value, "utf8");
  } catch (err) {
    throw new UsageError(`cannot read --${file.flag} ${file.value}: ${(err as Error).message}`);
  }
}

/**
 * Asks before a deletion on a terminal; elsewhere `--yes` must say it, as gh requires, so a script never
 * deletes by a slip.
 */
export async function confirmDeletion(deps: Deps, yes: boolean | undefined, what: string): Promise<void> {
  if (yes) return;
  if (!deps.canPrompt) throw new UsageError(`--yes is required to delete ${what} without a terminal`);
  if (!(await deps.prompt.confirm(`Delete ${what}?`, false))) throw new CancelledError();
}

/** The person answered no: nothing was done (exit 1). */
export class CancelledError extends Error {
  override name = "CancelledError";
  constructor() {
    super("cancelled; nothing was changed");
  }
}
