/** Severity of a log line, lowest first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Structured fields attached to a log line. */
export type LogFields = Readonly<Record<string, unknown>>;

/**
 * Where the runtime writes its log lines and orchestration traces. Plug in any logger with these
 * four methods (pino, winston and console all fit).
 */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

const RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/**
 * A logger writing one JSON line per entry to standard error, dropping entries below `level`.
 * @param level the lowest level written.
 */
export function createConsoleLogger(level: LogLevel): Logger {
  const write =
    (entryLevel: LogLevel) =>
    (message: string, fields?: LogFields): void => {
      if (RANK[entryLevel] < RANK[level]) return;
      process.stderr.write(
        `${JSON.stringify({ time: new Date().toISOString(), level: entryLevel, message, ...fields })}\n`,
      );
    };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}
