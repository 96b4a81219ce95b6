// `design-intel healthcheck [ready|live]`: asks the server on this machine for /api/health/<which>
// and exits 0 on 200, 1 otherwise, with the answer's reason on stderr. It reads PORT and HOST like
// the server, and nothing else, so it runs in the same container with the same environment.

const TIMEOUT_MS = 5000;

function hostFor(host: string | undefined): string {
  // A wildcard bind answers on loopback; a specific address is asked where it listens.
  if (!host || host === "0.0.0.0" || host === "::" || host === "[::]") return "127.0.0.1";
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

export async function healthcheck(which = "ready"): Promise<number> {
  if (which !== "ready" && which !== "live") {
    process.stderr.write(`healthcheck: expected "ready" or "live", got "${which}"\n`);
    return 2;
  }
  const port = process.env.PORT || "3000";
  const url = `http://${hostFor(process.env.HOST)}:${port}/api/health/${which}`;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (res.status === 200) return 0;
    const body = (await res.json().catch(() => null)) as { error?: unknown } | null;
    process.stderr.write(`healthcheck: ${res.status} ${typeof body?.error === "string" ? body.error : ""}\n`);
  } catch (e) {
    process.stderr.write(`healthcheck: ${url} did not answer (${e instanceof Error ? e.message : String(e)})\n`);
  }
  return 1;
}
