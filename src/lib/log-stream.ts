// Where log lines go: fd 1, written asynchronously in batches. Lines logged while a write is in
// flight are joined and go out in the next one, so a busy server makes few, large writes, and a
// slow reader of stdout never blocks a request.
//
// pino's own destination (sonic-boom) was measured at ~5 µs of CPU per line under Bun against ~3
// µs for this, on a path that runs once per request: it re-counts the bytes of its whole pending
// buffer on every write. That is the only reason this exists.
import { write, writeSync } from "node:fs";

/** Past this much unwritten output (stdout stuck), lines are dropped and counted instead of piling up. */
const MAX_PENDING_BYTES = 16 * 1024 * 1024;
const RETRY_MS = 20;
/**
 * How long a line may wait for others to join it. Under load each request finishes in its own turn
 * of the event loop; without the wait every request costs its own write (a system call through
 * the thread pool), which showed as ~9 µs of CPU per request.
 */
const BATCH_MS = 5;

export interface LineStream {
  write(line: string): void;
  /** Writes whatever is pending before returning (process exit). */
  flushSync(): void;
}

export interface BufferedLineStream extends LineStream {
  /**
   * From now on lines are batched and written asynchronously. Until then each line is written
   * before write() returns, so what boot logs is on stdout before the server answers anything.
   */
  buffer(): void;
}

const codeOf = (e: unknown) => (e && typeof e === "object" && "code" in e ? (e as { code: unknown }).code : undefined);

export function asyncLineStream(fd: number): BufferedLineStream {
  let buffered = false;
  let pending: string[] = [];
  let pendingBytes = 0;
  let writing = false;
  let scheduled = false;
  let dropped = 0;
  let broken = false;

  const take = (): string => {
    let chunk = pending.join("");
    if (dropped > 0) {
      chunk += `${JSON.stringify({ level: "warn", time: new Date().toISOString(), msg: `log output could not keep up: ${dropped} lines dropped` })}\n`;
      dropped = 0;
    }
    pending = [];
    pendingBytes = 0;
    return chunk;
  };

  const send = (buf: Buffer) => {
    writing = true;
    write(fd, buf, 0, buf.length, null, (err, n) => {
      if (err) {
        // A full non-blocking pipe: try the same bytes again shortly.
        if (codeOf(err) === "EAGAIN") return void setTimeout(() => send(buf), RETRY_MS);
        // stdout closed (EPIPE) or gone: nothing can be logged any more.
        broken = true;
        writing = false;
        pending = [];
        return;
      }
      if (n < buf.length) return send(buf.subarray(n));
      writing = false;
      if (pending.length) flush();
    });
  };

  function flush() {
    scheduled = false;
    if (writing || broken || pending.length === 0) return;
    send(Buffer.from(take()));
  }

  return {
    buffer() {
      buffered = true;
    },
    write(line) {
      if (broken) return;
      if (!buffered && !writing && pending.length === 0) {
        try {
          writeSync(fd, line);
          return;
        } catch (e) {
          // A full non-blocking pipe: queue it like any buffered line. Anything else: stdout is gone.
          if (codeOf(e) !== "EAGAIN") {
            broken = true;
            return;
          }
        }
      }
      if (pendingBytes > MAX_PENDING_BYTES) {
        dropped++;
        return;
      }
      pending.push(line);
      pendingBytes += line.length;
      if (!writing && !scheduled) {
        scheduled = true;
        setTimeout(flush, BATCH_MS);
      }
    },
    flushSync() {
      if (broken || pending.length === 0) return;
      try {
        writeSync(fd, take());
      } catch {
        // Nowhere left to write.
      }
    },
  };
}

/** Each line written before returning: for worker threads, which log rarely and may end abruptly. */
export function syncLineStream(fd: number): LineStream {
  return {
    write(line) {
      try {
        writeSync(fd, line);
      } catch {
        // A full or closed stdout: the line is lost rather than the worker.
      }
    },
    flushSync() {},
  };
}
