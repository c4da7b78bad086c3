#!/usr/bin/env node
import { runCli } from "./cli.js";

const code = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  isTTY: process.stdout.isTTY === true,
  env: process.env,
});
// Let stdout drain before exiting, so piped output is never cut short.
process.exitCode = code;
