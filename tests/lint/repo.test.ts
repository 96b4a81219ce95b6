// The lint gate: the whole repository, as `bun run lint` checks it, has no diagnostic at all
// (errors or warnings). A feature importing another, a server value in web/, a module reaching
// into another's internals, a ../../ import out of its folder, server code importing web/, shared
// web code importing a feature or a route, or an import cycle between modules fails the test command here.
import { expect, test } from "bun:test";
import { describeDiagnostic, oxlint } from "./oxlint";

// oxlint itself takes seconds; the generous limit only guards against a hung process on a busy machine.
test("oxlint finds nothing in the repository", async () => {
  const diagnostics = await oxlint(["--type-aware"]);
  expect(diagnostics.map(describeDiagnostic)).toEqual([]);
}, 300_000);
