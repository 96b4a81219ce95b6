// `design-intel users …`: account rescue for operators locked out of the UI. Same rules as the
// product: sign-up's validation and hash for create, the admin console's update (sessions ended,
// keys revoked on disable, audited) for promote and disable.
import { z } from "zod";
import { HttpError } from "#server/http/errors";
import { signupBody } from "#server/modules/auth/model";
import { CommandError, UsageError, parseFlags, required } from "../args";
import { openDataDir } from "../data-dir";

export const USERS_HELP = `Usage: design-intel users <create|promote|disable> [flags]

Manage accounts in DATA_DIR's database (works while the server runs).

  users create --email E [--password P] [--admin]
      Creates an account with sign-up's rules. Without --password the password is read from
      stdin (one line). --admin makes it an admin (the first account always is).
  users promote --email E     Makes the account an admin.
  users disable --email E     Disables the account: its sessions and API keys end at once.

Environment: DATA_DIR (default ./data), JWT_SECRET (if the server uses one).`;

/** Operator actions are audited without a signed-in actor; the user agent says where they came from. */
const CLI_ACTOR = { id: null, email: null, ip: "local", userAgent: "design-intel CLI" };

function valid<T>(command: string, flag: string, schema: z.ZodType<T>, value: unknown): T {
  const r = schema.safeParse(value);
  if (!r.success) throw new UsageError(`${command}: ${flag}: ${r.error.issues[0]?.message ?? "invalid value"}`);
  return r.data;
}

async function passwordFromStdin(command: string): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError(`${command}: --password is required (or pipe the password on stdin)`);
  const text = await Bun.stdin.text();
  // One line: the trailing newline `echo` adds is not part of the password.
  return text.replace(/\r?\n$/, "");
}

const messageOf = (e: unknown) => (e instanceof HttpError || e instanceof Error ? e.message : String(e));

export async function usersCommand(argv: string[], out: (line: string) => void): Promise<number> {
  const [action, ...rest] = argv;
  if (action === undefined || action === "--help" || action === "-h") {
    out(USERS_HELP);
    return action === undefined ? 2 : 0;
  }
  const command = `users ${action}`;
  if (action === "create") {
    const flags = parseFlags(command, rest, { email: { type: "string" }, password: { type: "string" }, admin: { type: "boolean" } });
    if (flags.help) return (out(USERS_HELP), 0);
    const email = valid(command, "--email", signupBody.shape.email, required(command, "--email", flags.email));
    const password = valid(command, "--password", signupBody.shape.password, flags.password ?? (await passwordFromStdin(command)));
    const data = await openDataDir();
    try {
      const user = await data.services.auth.createAccount({ email, password }, { admin: flags.admin === true });
      out(`created ${user.role} ${user.email} (${user.id})`);
      return 0;
    } catch (e) {
      throw new CommandError(`${command}: ${messageOf(e)}`);
    } finally {
      await data.close();
    }
  }
  if (action === "promote" || action === "disable") {
    const flags = parseFlags(command, rest, { email: { type: "string" } });
    if (flags.help) return (out(USERS_HELP), 0);
    const email = valid(command, "--email", signupBody.shape.email, required(command, "--email", flags.email));
    const data = await openDataDir();
    try {
      const found = await data.services.users.findByEmail(email);
      if (!found) throw new CommandError(`${command}: no account with the email ${email}`);
      const user = await data.services.users.update(CLI_ACTOR, found.id, action === "promote" ? { role: "admin" } : { disabled: true });
      out(action === "promote" ? `${user.email} is an admin` : `${user.email} is disabled; its sessions and API keys have ended`);
      return 0;
    } catch (e) {
      if (e instanceof CommandError) throw e;
      throw new CommandError(`${command}: ${messageOf(e)}`);
    } finally {
      await data.close();
    }
  }
  throw new UsageError(`users: unknown action "${action}" (expected create, promote or disable; see design-intel users --help)`);
}
