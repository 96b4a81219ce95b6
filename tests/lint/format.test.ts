// The format check: every file is as `bun fmt` prints it (config: [fmt] in bunfig.toml, ignores in
// .prettierignore). `bun fmt --no-script` fixes what it finds.
import { expect, test } from "bun:test";
import { ROOT } from "./oxlint";

test("the repository is formatted as bun fmt prints it", async () => {
  const proc = Bun.spawn([process.execPath, "fmt", "--list-different", "--no-script"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const unformatted = out.split("\n").filter(Boolean);
  expect({ unformatted, error: code > 1 ? err : "" }).toEqual({ unformatted: [], error: "" });
}, 300_000);
