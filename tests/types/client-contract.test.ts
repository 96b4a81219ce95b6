// The web client's types come from the server's App: a renamed response field is a compile error
// in the web code that reads it, and a client that lost its types (answers typed `any`) is caught.
// One TypeScript checker process (tsgo's API) loads the project once; each case swaps one file's
// text in memory and asks for the type errors of the files that read the answer. Checking only
// those files (not the whole server graph three times over, in three copies of the project) is
// what keeps this file short: the answer's type is still inferred from the real App.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { API } from "typescript/unstable/async";

const root = join(import.meta.dir, "../..");
const CONFIG = join(root, "tests/types/fixtures/tsconfig.json");
const FIXTURE = join(root, "tests/types/fixtures/reads-system-status.ts");
const MODEL = join(root, "src/modules/system/model.ts");
const CLIENT = join(root, "web/lib/api.ts");

/** Text the checker sees instead of the file on disk; anything else is read from disk. */
const edited = new Map<string, string>();
let api: API;

beforeAll(() => {
  api = new API({ cwd: root, fs: { readFile: (file) => edited.get(file) } });
});

afterAll(async () => {
  await api?.close();
});

/** The type errors of `files` (all of them, by default only the fixture) with `edit` applied to one file. */
async function errors(edit?: { file: string; from: RegExp; to: string }, files = (_all: readonly string[]) => [FIXTURE]) {
  const changed = [...edited.keys()];
  edited.clear();
  if (edit) {
    const before = readFileSync(edit.file, "utf8");
    const after = before.replace(edit.from, edit.to);
    // The edit must bite, or the case below would prove nothing.
    if (after === before) throw new Error(`${edit.file} no longer matches ${edit.from}; point the case at the new shape`);
    edited.set(edit.file, after);
    changed.push(edit.file);
  }
  const snapshot = await api.updateSnapshot(
    changed.length ? { openProjects: [CONFIG], fileChanges: { changed } } : { openProjects: [CONFIG] },
  );
  const project = (await snapshot.getProject(CONFIG))!;
  const names = await project.program.getSourceFileNames();
  // The fixture reaches the client, and through it the server's App: a graph that lost them would check nothing.
  if (!names.includes(FIXTURE) || !names.includes(MODEL) || !names.includes(CLIENT))
    throw new Error(`the fixture's program lacks the client or the server`);
  const out: { file: string; text: string }[] = [];
  for (const file of files(names)) {
    for (const d of await project.program.getSemanticDiagnostics(file)) out.push({ file: file.slice(root.length + 1), text: d.text });
    for (const d of await project.program.getSyntacticDiagnostics(file)) out.push({ file: file.slice(root.length + 1), text: d.text });
  }
  return out;
}

const fixtureName = FIXTURE.slice(root.length + 1);

// The cases share one checker, so they run one after another.
describe("the typed client follows the server's types", () => {
  test("as the server is, the fixture compiles: its @ts-expect-error lines are real errors and the answer types are exact", async () => {
    expect(await errors()).toEqual([]);
  }, 600_000);

  test("renaming a server response field (isActive) is a compile error where web code reads it", async () => {
    // Web files that name the field (with the fixture): those are the readers the rename must break.
    const readers = (all: readonly string[]) =>
      all.filter((f) => f === FIXTURE || (f.startsWith(join(root, "web/")) && readFileSync(f, "utf8").includes("isActive")));
    const found = await errors({ file: MODEL, from: /\bisActive\b/g, to: "isSwitchedOn" }, readers);
    expect(found.some((e) => e.file === fixtureName && e.text.includes("'isActive'"))).toBe(true);
    // The app's own web code breaks too, not only the fixture.
    expect(found.some((e) => e.file.startsWith("web/") && e.text.includes("isActive"))).toBe(true);
  }, 600_000);

  test("a client whose answers degrade to `any` fails the fixture", async () => {
    const found = await errors({ file: CLIENT, from: /Promise<Ok<R>>;/, to: "Promise<any>;" });
    expect(found.filter((e) => e.file === fixtureName).length).toBeGreaterThan(0);
  }, 600_000);
});
