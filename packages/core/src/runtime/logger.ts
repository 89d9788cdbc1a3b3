import { hostname } from 'node:os';
import { pino } from 'pino';
import { LOG_FORMATS, logDestination, type LogFormat } from './log-line-format.js';

/** Severity of a log line, lowest first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Structured fields attached to a log line. */
export type LogFields = Readonly<Record<string, unknown>>;

/**
 * Where the runtime writes its log lines and orchestration traces, in pino's call shape: fields
 * first, then the message. A `pino` logger fits as it is; so does anything with these methods.
 * When `child` is there, the runtime uses it to bind the fields of one work item (instance,
 * execution, lock token, attempt) to every line logged while that item is processed.
 */
export interface Logger {
  /** Writes a debug line. */
  debug(fields: LogFields, message: string): void;
  /** Writes an info line. */
  info(fields: LogFields, message: string): void;
  /** Writes a warning. */
  warn(fields: LogFields, message: string): void;
  /** Writes an error line. */
  error(fields: LogFields, message: string): void;
  /** A logger that adds `bindings` to every line it writes. */
  child?(bindings: LogFields): Logger;
}

/** Where and how the built-in logger writes, beyond its level. */
export interface DefaultLoggerOptions {
  /** Line format. @default 'json' */
  readonly format?: LogFormat;
  /** The `name` field of every line. @default 'duro' */
  readonly serviceName?: string;
  /** Added to every line as `serviceVersion` when given. */
  readonly serviceVersion?: string;
  /** File descriptor written to (synchronously). @default 2 (standard error) */
  readonly fd?: number;
}

/** The levels the built-in logger takes, lowest first. @internal */
export const DEFAULT_LOGGER_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'silent'] as const;

/**
 * The runtime's default logger: pino writing one line per entry to standard error
 * (synchronously, so a crash loses no line), dropping entries below `level`.
 * @param level the lowest level written (`'trace'` writes everything), or `'silent'` for none.
 *   @default 'info'
 * @throws {RangeError} for a level or format it does not know.
 */
export function createDefaultLogger(
  level: LogLevel | 'trace' | 'silent' = 'info',
  options: DefaultLoggerOptions = {},
): Logger {
  const { format = 'json', serviceName = 'duro', serviceVersion, fd = 2 } = options;
  if (!DEFAULT_LOGGER_LEVELS.includes(level)) {
    throw new RangeError(
      `log level must be one of ${DEFAULT_LOGGER_LEVELS.join(', ')}, got ${String(level)}`,
    );
  }
  if (!LOG_FORMATS.includes(format)) {
    throw new RangeError(
      `log format must be one of ${LOG_FORMATS.join(', ')}, got ${String(format)}`,
    );
  }
  return pino(
    {
      name: serviceName,
      level,
      // pino's own base fields, plus the version when there is one.
      base: {
        pid: process.pid,
        hostname: hostname(),
        ...(serviceVersion !== undefined ? { serviceVersion } : {}),
      },
    },
    logDestination(fd, format),
  );
}

/**
 * A logger that adds `fields` to every line, through `child` when the logger has it. This is
 * what makes two lines about one work item correlatable: a poison warning and the ack failure
 * that follows it carry the same instance, execution and lock token.
 */
export function withLogFields(logger: Logger, fields: LogFields): Logger {
  if (logger.child) return logger.child(fields);
  const merged =
    (level: LogLevel) =>
    (extra: LogFields, message: string): void => {
      logger[level]({ ...fields, ...extra }, message);
    };
  return {
    debug: merged('debug'),
    info: merged('info'),
    warn: merged('warn'),
    error: merged('error'),
    child: (bindings) => withLogFields(logger, { ...fields, ...bindings }),
  };
}
