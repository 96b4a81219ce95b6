// The server words host-alert durations with src/lib/format.ts, the console with web/lib/format.ts
// (the browser cannot import server code): one wording, so the two must agree everywhere.
import { expect, test } from "bun:test";
import { formatElapsed } from "#server/lib/format";
import { formatElapsed as webFormatElapsed } from "#web/lib/format";

test("the server's and the console's durations read the same", () => {
  const samples = [-5_000, 0, 499, 500, 42_000, 59_499, 59_500, 60_000, 250_000, 3_599_000, 3_600_000, 3_720_000, 7_200_000, 90_061_000];
  for (let ms = 0; ms < 3 * 3_600_000; ms += 7_919) samples.push(ms);
  for (const ms of samples) expect(formatElapsed(ms)).toBe(webFormatElapsed(ms));
});
