// One log format for the whole process: JSON lines on stdout with `level` (a name, not pino's
// number), `time` (ISO), `msg`, and whatever fields the caller chose. Nothing is logged wholesale
// (no request, header or body objects), so a secret can only reach the log if someone names it.
//
// pino writes straight to a file descriptor (no transport, no worker thread: see log-stream.ts),
// which is what works inside the compiled single executable.
import pino, { type DestinationStream, type Logger } from "pino";
import { asyncLineStream, syncLineStream, type BufferedLineStream } from "./log-stream";

export type { Logger };

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The old `(msg, err) => void` callbacks that services and the capture pool take. */
export type LogFn = (msg: string, err?: unknown) => void;

const stdoutStreams = new Set<BufferedLineStream>();

/** Lines still buffered for stdout are written before the process ends (process.exit included). */
export function flushLogsSync(): void {
  for (const s of stdoutStreams) s.flushSync();
}

/**
 * Switches stdout logging to batched asynchronous writes, once the server is up: boot's lines are
 * written as they happen (an operator or a test reading them sees them before the first answer),
 * and from then on no request waits on stdout.
 */
export function bufferLogs(): void {
  for (const s of stdoutStreams) s.buffer();
}

function stdoutStream(sync: boolean) {
  if (sync) return syncLineStream(1);
  const stream = asyncLineStream(1);
  if (stdoutStreams.size === 0) process.on("exit", flushLogsSync);
  stdoutStreams.add(stream);
  return stream;
}

export interface LoggerOptions {
  level: LogLevel;
  /** Where lines go; stdout when absent. Tests pass an in-memory stream. */
  stream?: DestinationStream;
  /** Write each line before returning (workers, which log rarely and may be ended abruptly). */
  sync?: boolean;
}

export function createLogger(opts: LoggerOptions): Logger {
  return pino(
    {
      level: opts.level,
      // No pid/hostname: one process per container, and every field is a deliberate choice.
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    opts.stream ?? stdoutStream(opts.sync ?? false),
  );
}

/** The ISO time of the last millisecond a line was stamped in: many lines share one under load. */
let isoAtMs = -1;
let isoText = "";
function isoNow(): string {
  const ms = Date.now();
  if (ms !== isoAtMs) {
    isoAtMs = ms;
    isoText = new Date(ms).toISOString();
  }
  return isoText;
}

/**
 * A writer of one kind of line, in exactly this logger's format and to its destination, for a line
 * written on every request: pino's general path (its serialiser walking each field, the level and
 * time formatters) measured ~5 µs of CPU per line, this ~1. `fields` is a plain object of JSON
 * values, or its members already serialised (`"a":1,"b":"x"`, no braces); only the logger's own
 * level decides whether the line is written. A child logger (bindings of its own) gets pino's
 * path, which knows how to write them.
 */
export function lineWriter(logger: Logger): (level: "info" | "error", msg: string, fields: object | string) => void {
  const stream = (logger as unknown as Record<symbol, DestinationStream | undefined>)[pino.symbols.streamSym];
  if (!stream || Object.keys(logger.bindings()).length > 0)
    return (level, msg, fields) => logger[level](typeof fields === "string" ? (JSON.parse(`{${fields}}`) as object) : fields, msg);
  return (level, msg, fields) => {
    if (!logger.isLevelEnabled(level)) return;
    const members = typeof fields === "string" ? fields : JSON.stringify(fields).slice(1, -1);
    const sep = members.length > 0 ? "," : "";
    stream.write(`{"level":"${level}","time":"${isoNow()}",${members}${sep}"msg":${JSON.stringify(msg)}}\n`);
  };
}

/** A logger that drops everything (scripts and tests that don't look at logs). */
export const silentLogger = (): Logger => createLogger({ level: "silent", stream: { write() {} } });

/** Adapts a logger to the `(msg, err) => void` callbacks threaded through the services. */
export function logFn(logger: Logger, level: "error" | "warn" | "info" = "error"): LogFn {
  return (msg, err) => {
    if (err === undefined || err === "") logger[level](msg);
    else logger[level]({ err }, msg);
  };
}

/** LOG_LEVEL as src/env.ts validates it, for workers that have no validated env of their own. */
export function levelFromEnv(value: string | undefined): LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(value ?? "") ? (value as LogLevel) : "info";
}

/** A worker thread's logger: same format, tagged with the worker, written synchronously. */
export function workerLogger(worker: string): Logger {
  return createLogger({ level: levelFromEnv(process.env.LOG_LEVEL), sync: true }).child({ worker });
}
