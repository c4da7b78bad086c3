/** The tool server's version, reported to clients in `initialize` and by `--version`; keep in step with package.json. */
export const VERSION = "0.1.0";
