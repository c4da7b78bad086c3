import type { Schemas } from "@tracker/sdk";
import { type Deps, defineCommand, type Opts, positiveInt } from "../../command.js";
import { palette, printJsonLine, say } from "../../output.js";

export const spec = defineCommand({
  summary: "Follow the workspace's live changes, one line per change",
  description:
    "Runs until Ctrl-C (or --count changes). A dropped connection is reopened where it left off, so no change\n" +
    "is missed; if the server no longer has them, a warning says so. Piped, each line is\n" +
    "`time<TAB>action<TAB>entity<TAB>identifier-or-id<TAB>team`; --json prints one JSON object per line.",
  args: [],
  options: {
    count: { type: "string", short: "n", value: "N", description: "Stop after N changes" },
    after: { type: "string", value: "ID", description: "Resume after this event id" },
  },
  examples: [
    "tracker events tail",
    "tracker events tail --json --jq 'select(.entity == \"issue\") | .identifier'",
  ],
});

type Change = Schemas["ChangeEvent"];

export async function run(opts: Opts<typeof spec>, deps: Deps): Promise<void> {
  const count = opts.count ? positiveInt("count", opts.count) : Number.POSITIVE_INFINITY;
  const stop = new AbortController();
  const signal = deps.call.signal ? AbortSignal.any([deps.call.signal, stop.signal]) : stop.signal;
  const c = palette(deps);
  let seen = 0;
  const events = deps.tracker.events.stream({ signal, ...(opts.after ? { lastEventId: opts.after } : {}) });
  for await (const event of events) {
    if (event.event === "connected") {
      const ws = (event.data as { workspace?: string }).workspace;
      say(deps, `Following ${ws ?? "the workspace"}${deps.stderrTTY ? "; press Ctrl-C to stop" : ""}`);
    } else if (event.event === "reset") {
      say(deps, "Some changes were missed (the server no longer keeps them); refetch what you follow.");
    } else if (event.event === "changed") {
      const change = event.data as Change;
      if (opts.json) await printJsonLine(deps, { eventId: event.id, ...change });
      else if (deps.isTTY) {
        const what = change.identifier ?? change.id;
        const action = change.action === "created" ? c.green : change.action === "deleted" ? c.red : c.yellow;
        deps.stdout.write(
          `${c.gray(new Date(change.at).toLocaleTimeString())}  ${action(change.action.padEnd(7))}  ${change.entity.padEnd(14)}  ${c.cyan(what)}\n`,
        );
      } else {
        deps.stdout.write(
          `${change.at}\t${change.action}\t${change.entity}\t${change.identifier ?? change.id}\t${change.teamKey ?? ""}\n`,
        );
      }
      if (++seen >= count) {
        stop.abort();
        break;
      }
    }
  }
}
