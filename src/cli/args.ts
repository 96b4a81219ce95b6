// Flag parsing for the subcommands: node:util's strict parseArgs, with its errors turned into one
// line that names the flag (exit 2), so a typo in a CI script is obvious from the job log.
import { type ParseArgsConfig, parseArgs } from "node:util";
import { EnvError, type Env, loadEnv } from "#server/env";

/** The environment, as the server reads it; a bad variable is the command's failure (exit 1), named. */
export function commandEnv(): Env {
  try {
    return loadEnv();
  } catch (e) {
    if (e instanceof EnvError) throw new CommandError(e.message);
    throw e;
  }
}

/** A mistake in how the command was called: printed as one line, exit code 2. */
export class UsageError extends Error {}

/** The command was called right but could not do its job: printed as one line, exit code 1. */
export class CommandError extends Error {}

type Options = NonNullable<ParseArgsConfig["options"]>;

const quoted = (message: string) => /'([^']+)'/.exec(message)?.[1] ?? "";

/** Parses `argv` for `command` ("users create"); unknown flags, missing values and stray arguments throw UsageError. */
export function parseFlags<const O extends Options>(command: string, argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options: { ...options, help: { type: "boolean", short: "h" } }, strict: true, allowPositionals: false })
      .values;
  } catch (e) {
    const code = (e as { code?: string }).code;
    const message = e instanceof Error ? e.message : String(e);
    const hint = `(see design-intel ${command} --help)`;
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") throw new UsageError(`${command}: unknown flag ${quoted(message)} ${hint}`);
    if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL")
      throw new UsageError(`${command}: unexpected argument "${quoted(message)}" ${hint}`);
    if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
      const flag = quoted(message).split(" ")[0]!;
      const detail = /does not take an argument/.test(message) ? "takes no value" : "needs a value";
      throw new UsageError(`${command}: ${flag} ${detail} ${hint}`);
    }
    throw new UsageError(`${command}: ${message} ${hint}`);
  }
}

/** A flag that must be present: its absence is a usage error naming it. */
export function required<T>(command: string, flag: string, value: T | undefined): T {
  if (value === undefined || value === "") throw new UsageError(`${command}: ${flag} is required (see design-intel ${command} --help)`);
  return value;
}
