// The executable's entry. With no arguments (or `serve`) it runs the server; the subcommands
// (healthcheck, users, backup, check, --help, --version) are dispatched by src/cli/main.ts, which
// imports each only when chosen, so a probe or a --version does not load the whole server.
import { runCli } from "./cli/main";

const outcome = await runCli(process.argv.slice(2));
if (outcome === "serve") {
  const { serve } = await import("./boot/serve");
  await serve();
} else {
  process.exit(outcome);
}
