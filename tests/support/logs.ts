import { createLogger, type LogLevel } from "#server/lib/logger";

type Line = Record<string, any>;

/**
 * A logger whose lines are kept in memory, parsed, for tests that look at what was logged.
 * Request lines are written after the answer has gone out, so tests wait for them with `until`.
 */
export function memoryLogger(level: LogLevel = "info") {
  const lines: Line[] = [];
  const raw: string[] = [];
  const waiters = new Set<() => void>();
  const logger = createLogger({
    level,
    stream: {
      write(line: string) {
        raw.push(line);
        lines.push(JSON.parse(line) as Line);
        for (const w of waiters) w();
      },
    },
  });

  /** Resolves with the matching lines once there are at least `count` of them. */
  function until(match: (line: Line) => boolean, count = 1, timeoutMs = 10_000): Promise<Line[]> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = lines.filter(match);
        if (found.length < count) return false;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`timed out waiting for ${count} log line(s); have:\n${raw.join("")}`));
      }, timeoutMs);
      if (!check()) waiters.add(check);
    });
  }

  const isRequest = (l: Line) => l.msg === "request";
  return {
    logger,
    lines,
    text: () => raw.join(""),
    until,
    /** The request lines, once `count` of them have been written. */
    requests: (count: number) => until(isRequest, count),
    clear: () => {
      lines.length = 0;
      raw.length = 0;
    },
  };
}
