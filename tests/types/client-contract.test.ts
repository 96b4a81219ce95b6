// The web client's types come from the server's App: a renamed response field is a compile error
// in the web code that reads it, and a client that lost its types (answers typed `any`) is caught.
// Each case compiles fixtures/reads-system-status.ts with tsc against a copy of src/ and web/.
import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dir, "../..");
const FIXTURE = "tests/types/fixtures/reads-system-status.ts";
const copies: string[] = [];

/** A copy of what the fixture compiles against, with `edit` applied to one file. */
function copyProject(edit?: { file: string; from: RegExp; to: string }): string {
  const dir = mkdtempSync(join(tmpdir(), "client-contract-"));
  copies.push(dir);
  for (const part of ["src", "web", "tests/types", "tsconfig.json", "package.json"])
    cpSync(join(root, part), join(dir, part), { recursive: true });
  for (const shared of ["node_modules", "migrations"]) symlinkSync(join(root, shared), join(dir, shared));
  if (edit) {
    const path = join(dir, edit.file);
    const before = readFileSync(path, "utf8");
    const after = before.replace(edit.from, edit.to);
    // The edit must bite, or the case below would prove nothing.
    if (after === before) throw new Error(`${edit.file} no longer matches ${edit.from}; point the case at the new shape`);
    writeFileSync(path, after);
  }
  return dir;
}

async function tsc(dir: string): Promise<{ code: number; out: string }> {
  const proc = Bun.spawn(["bunx", "tsc", "--noEmit", "-p", "tests/types/fixtures/tsconfig.json"], {
    cwd: dir,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out: out + err };
}

const errorsIn = (out: string, file: string) => out.split("\n").filter((l) => l.startsWith(`${file}(`));

afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

// tsc over the whole server graph takes a while on a loaded machine; the cases run side by side
// and each finishes when its compiler does.
describe("the typed client follows the server's types", () => {
  const asIs = tsc(copyProject());
  const renamed = tsc(copyProject({ file: "src/modules/system/model.ts", from: /\bisActive\b/g, to: "isSwitchedOn" }));
  const untyped = tsc(copyProject({ file: "web/lib/api.ts", from: /Promise<Ok<R>>;/, to: "Promise<any>;" }));

  test("as the server is, the fixture compiles: its @ts-expect-error lines are real errors and the answer types are exact", async () => {
    const { code, out } = await asIs;
    expect(out).toBe("");
    expect(code).toBe(0);
  }, 600_000);

  test("renaming a server response field (isActive) is a compile error where web code reads it", async () => {
    const { code, out } = await renamed;
    expect(code).not.toBe(0);
    const here = errorsIn(out, FIXTURE);
    expect(here.some((l) => l.includes("'isActive'"))).toBe(true);
    // The app's own web code breaks too, not only the fixture.
    expect(out.split("\n").some((l) => l.startsWith("web/") && l.includes("isActive"))).toBe(true);
  }, 600_000);

  test("a client whose answers degrade to `any` fails the fixture", async () => {
    const { code, out } = await untyped;
    expect(code).not.toBe(0);
    expect(errorsIn(out, FIXTURE).length).toBeGreaterThan(0);
  }, 600_000);
});
