// Client side of bench/ws.bench.ts: opens `count` sockets to the live feed, reports when they are
// up, then times every delivery. Talks to the parent over stdout (one JSON object per line) and
// takes commands on stdin. Run by the bench, not by hand.
const [url, token, countArg] = process.argv.slice(2);
const count = Number(countArg);
const now = () => performance.timeOrigin + performance.now();
const say = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`);

interface Probe {
  latencies: number[];
  burst: { expected: number; got: number; last: number };
}
const probe: Probe = { latencies: [], burst: { expected: 0, got: 0, last: 0 } };

const sockets: WebSocket[] = [];
let opened = 0;
let failed = 0;

function open(): Promise<void> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url!, { protocols: ["design-intel.v1", `bearer.${token}`] } as never);
    ws.onopen = () => {
      opened++;
      sockets.push(ws);
      resolve();
    };
    ws.onerror = () => {
      failed++;
      resolve();
    };
    ws.onmessage = (e) => {
      const at = now();
      const m = JSON.parse(String(e.data)) as { payload: { kind: string; sentAt: number } };
      if (m.payload.kind === "probe") probe.latencies.push(at - m.payload.sentAt);
      else {
        probe.burst.got++;
        probe.burst.last = at;
      }
    };
  });
}

// Batches keep the connect storm from overflowing the listen backlog.
for (let i = 0; i < count; i += 250) await Promise.all(Array.from({ length: Math.min(250, count - i) }, open));
say({ ready: true, opened, failed });

for await (const line of console) {
  const cmd = JSON.parse(line) as { cmd: string; expected?: number };
  if (cmd.cmd === "reset") {
    probe.latencies = [];
    probe.burst = { expected: cmd.expected ?? 0, got: 0, last: 0 };
    say({ reset: true });
  } else if (cmd.cmd === "collect") {
    const deadline = now() + 20_000;
    while (probe.latencies.length < opened && probe.burst.got < probe.burst.expected && now() < deadline) await Bun.sleep(5);
    while ((probe.burst.expected ? probe.burst.got < probe.burst.expected : probe.latencies.length < opened) && now() < deadline)
      await Bun.sleep(5);
    say({ latencies: probe.latencies, got: probe.burst.got, last: probe.burst.last });
  } else if (cmd.cmd === "close") {
    for (const s of sockets) s.close();
    say({ closed: true });
    process.exit(0);
  }
}
