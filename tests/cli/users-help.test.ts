// `--help` on `users promote` and `users disable`, at the command level (no process, no binary):
// the help is printed, the exit code is 0, and DATA_DIR is never opened, so an operator can read
// the usage on a machine whose data they must not touch yet.
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { USERS_HELP, usersCommand } from "#server/cli/commands/users";

const root = mkdtempSync(join(tmpdir(), "di-users-help-"));
const dataDir = join(root, "data");
const before = process.env.DATA_DIR;
process.env.DATA_DIR = dataDir;
afterEach(() => expect(existsSync(dataDir)).toBe(false));
afterAll(() => {
  if (before === undefined) delete process.env.DATA_DIR;
  else process.env.DATA_DIR = before;
  rmSync(root, { recursive: true, force: true });
});

async function run(argv: string[]) {
  const out: string[] = [];
  const code = await usersCommand(argv, (line) => out.push(line));
  return { code, out: out.join("\n") };
}

describe("users promote / disable --help", () => {
  for (const action of ["promote", "disable"] as const) {
    for (const flag of ["--help", "-h"]) {
      test(`users ${action} ${flag}: the usage, exit 0, nothing opened`, async () => {
        const r = await run([action, flag]);
        expect(r.code).toBe(0);
        expect(r.out).toBe(USERS_HELP);
        expect(r.out).toStartWith("Usage: design-intel users <create|promote|disable>");
        expect(r.out).toContain(`users ${action} --email E`);
      });
    }

    test(`users ${action} --email E --help: help wins over running the action`, async () => {
      const r = await run([action, "--email", "ops@example.com", "--help"]);
      expect(r).toEqual({ code: 0, out: USERS_HELP });
    });

    test(`users ${action} with neither --email nor --help is a usage error naming the flag`, async () => {
      await expect(run([action])).rejects.toThrow(`users ${action}: --email is required (see design-intel users ${action} --help)`);
    });
  }

  test("the help says what each does", () => {
    expect(USERS_HELP).toMatch(/users promote --email E\s+Makes the account an admin\./);
    expect(USERS_HELP).toMatch(/users disable --email E\s+Disables the account: its sessions and API keys end at once\./);
  });
});
