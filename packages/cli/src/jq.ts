/**
 * `--jq`: jq itself, compiled to WebAssembly (jq-wasm), so filters behave exactly as the jq people know.
 * Loaded only when a command is given `--jq`.
 */

/** A jq filter that failed: a compile error is a usage error (exit 2), a run-time one a refusal (exit 1). */
export class JqError extends Error {
  override name = "JqError";
  constructor(
    message: string,
    readonly compile: boolean,
  ) {
    super(message);
  }
}

function jqError(err: unknown): JqError {
  const message = (err instanceof Error ? err.message : String(err))
    .replace(/^Failed to execute raw query: /, "")
    .trim();
  return new JqError(message, /compile error/.test(message));
}

/**
 * Runs `filter` on `value`; strings come out raw and everything else as JSON, one result per line (as `gh
 * --jq` and `jq -r` print them), pretty-printed on a terminal.
 */
export async function runJq(value: unknown, filter: string, options: { pretty: boolean }): Promise<string> {
  const jq = await import("jq-wasm");
  let out: string;
  try {
    out = await jq.raw(JSON.stringify(value), filter, options.pretty ? ["-r"] : ["-r", "-c"]);
  } catch (err) {
    throw jqError(err);
  }
  // jq-wasm hands back jq's output with trailing whitespace trimmed: one newline ends the last result.
  return out === "" ? "" : `${out}\n`;
}

/** Compiles a filter before anything is sent, so a typo never follows a write that already happened. */
export async function checkJq(filter: string): Promise<void> {
  const jq = await import("jq-wasm");
  try {
    await jq.raw("null", filter, ["-c"]);
  } catch (err) {
    const error = jqError(err);
    if (error.compile) throw error;
  }
}
