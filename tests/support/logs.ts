import { createLogger, type LogLevel } from "../../src/lib/logger";

/** A logger whose lines are kept in memory, parsed, for tests that look at what was logged. */
export function memoryLogger(level: LogLevel = "info") {
  const lines: Record<string, any>[] = [];
  const raw: string[] = [];
  const logger = createLogger({
    level,
    stream: {
      write(line: string) {
        raw.push(line);
        lines.push(JSON.parse(line) as Record<string, any>);
      },
    },
  });
  return { logger, lines, text: () => raw.join("") };
}
