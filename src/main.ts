// The executable's entry. With no arguments it runs every role in one process; `serve`, `worker`
// and `scheduler` run one role each (src/boot/start.ts). The other subcommands (healthcheck, users,
// backup, check, --help, --version) are dispatched by src/cli/main.ts, which imports each only when
// chosen, so a probe or a --version does not load the whole server.
import { runCli } from "./cli/main";

const outcome = await runCli(process.argv.slice(2));
if (typeof outcome === "string") {
  const { start } = await import("./boot/start");
  await start(outcome);
} else {
  process.exit(outcome);
}
