// The executable's subcommands. No command runs every role in one process; `serve`, `worker` and
// `scheduler` run one role each (docs/scaling.md, "Roles"); the others are operator tools that work
// on the same DATA_DIR. Exit codes: 0 done, 1 the action failed, 2 wrong usage.
import pkg from "../../package.json" with { type: "json" };
import type { Role } from "#server/boot/context";
import { CommandError, UsageError } from "./args";

export const VERSION: string = pkg.version;

const HELP = `Usage: design-intel [command] [flags]

Commands:
  serve                 Run the server: web pages, /api and live sockets (with SQLite, every role)
  worker                Run captures and jobs for servers sharing a PostgreSQL DATABASE_URL
  scheduler             Run schedules, digests and agents for a PostgreSQL deployment (one acts at a time)
  healthcheck [ready|live]
                        Ask the server on PORT/HOST whether it is ready (or alive): exit 0 or 1
  users                 Create, promote or disable accounts (design-intel users --help)
  backup --out FILE     Write a verified copy of the database
  check --config FILE   Check your site against budgets (design-intel check --help)
  approve --config FILE Make the last check's captures your page's visual baseline
  migrate-to --database URL [--storage URL]
                        Copy this install's data into PostgreSQL (and files into a bucket)
  --version             Print the version
  --help                Print this help

With no command, one process serves, captures and schedules (the embedded install).
Configuration comes from the environment (PORT, DATA_DIR, ...; see the README).`;

const SERVE_HELP = `Usage: design-intel [serve]

Runs the server: web pages, /api and live sockets on PORT. With SQLite (no DATABASE_URL, or
sqlite:), it also captures and schedules: the whole product in one process. With a PostgreSQL
DATABASE_URL it drives the runs started through it and leaves jobs to workers and schedules to
schedulers. Configuration comes from the environment (PORT, HOST, DATA_DIR, DATABASE_URL, ...).`;

const WORKER_HELP = `Usage: design-intel worker

Runs captures and analysis for a deployment on PostgreSQL: its capture browsers (or the browser
servers BROWSER_WS_ENDPOINTS names) take jobs from the database's queue, alongside alert deliveries
and digests. Any number may run. It listens on PORT for /api/health/live and /api/health/ready only.
Needs DATABASE_URL=postgres://... and JWT_SECRET (with SQLite, design-intel serve does this work).`;

const SCHEDULER_HELP = `Usage: design-intel scheduler

Runs scheduled runs, digests, the agents, host metrics and the failing of runs whose instance
stopped, for a deployment on PostgreSQL. Only the scheduler holding the "scheduler" lease acts;
run two for failover, the other stands by (and is ready). It listens on PORT for
/api/health/live and /api/health/ready only.
Needs DATABASE_URL=postgres://... and JWT_SECRET (with SQLite, design-intel serve does this work).`;

/** worker and scheduler share the database with other processes: the embedded SQLite file is one process's. */
function needsPostgres(command: "worker" | "scheduler") {
  const url = (process.env.DATABASE_URL ?? "").trim();
  if (!/^postgres(ql)?:\/\//.test(url))
    throw new UsageError(
      `${command}: needs a PostgreSQL DATABASE_URL (postgres://...); with SQLite, design-intel serve runs every role in one process`,
    );
}

const HEALTHCHECK_HELP = `Usage: design-intel healthcheck [ready|live]

Asks the server listening on PORT (and HOST) for /api/health/ready (default) or /api/health/live.
Exit 0 when it answers 200, 1 otherwise (the Docker HEALTHCHECK).`;

/** A role to start, or an exit code. */
type Outcome = Role | number;

const out = (text: string) => console.log(text);

async function dispatch(argv: string[]): Promise<Outcome> {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
      return "all";
    case "worker":
    case "scheduler":
      if (rest.length === 1 && (rest[0] === "--help" || rest[0] === "-h"))
        return (out(command === "worker" ? WORKER_HELP : SCHEDULER_HELP), 0);
      if (rest.length)
        throw new UsageError(
          `${command}: unknown flag ${rest[0]} (configured through the environment; see design-intel ${command} --help)`,
        );
      needsPostgres(command);
      return command;
    case "serve":
      if (rest.length === 1 && (rest[0] === "--help" || rest[0] === "-h")) return (out(SERVE_HELP), 0);
      if (rest.length)
        throw new UsageError(
          `serve: unknown flag ${rest[0]} (the server is configured through the environment; see design-intel serve --help)`,
        );
      return "serve";
    case "--version":
    case "-v":
      out(VERSION);
      return 0;
    case "--help":
    case "-h":
    case "help":
      out(HELP);
      return 0;
    case "healthcheck":
      if (rest[0] === "--help" || rest[0] === "-h") return (out(HEALTHCHECK_HELP), 0);
      if (rest.length > 1) throw new UsageError(`healthcheck: unexpected argument "${rest[1]}" (see design-intel healthcheck --help)`);
      return (await import("#server/boot/healthcheck")).healthcheck(rest[0]);
    case "users":
      return (await import("./commands/users")).usersCommand(rest, out);
    case "backup":
      return (await import("./commands/backup")).backupCommand(rest, out);
    case "check":
      return (await import("./commands/check")).checkCommand(rest, out);
    case "approve":
      return (await import("./commands/approve")).approveCommand(rest, out);
    case "migrate-to":
      return (await import("./commands/migrate-to")).migrateToCommand(rest, out);
    default:
      throw new UsageError(
        command.startsWith("-")
          ? `unknown flag ${command} (see design-intel --help)`
          : `unknown command "${command}" (see design-intel --help)`,
      );
  }
}

/** The role to start when the caller should start one; otherwise the exit code, the outcome already printed. */
export async function runCli(argv: string[]): Promise<Outcome> {
  try {
    return await dispatch(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`design-intel ${e.message}`);
      return 2;
    }
    if (e instanceof CommandError) {
      console.error(e.message.startsWith("Invalid configuration") ? e.message : `design-intel ${e.message}`);
      return 1;
    }
    // A check that cannot be made (bad config, unreachable page) is exit 2, so CI tells it from a failed budget.
    if (e instanceof Error && e.name === "CheckError") {
      console.error(`design-intel check: ${e.message}`);
      return 2;
    }
    throw e;
  }
}
