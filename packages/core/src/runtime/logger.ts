import { pino } from 'pino';

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
  debug(fields: LogFields, message: string): void;
  info(fields: LogFields, message: string): void;
  warn(fields: LogFields, message: string): void;
  error(fields: LogFields, message: string): void;
  child?(bindings: LogFields): Logger;
}

/**
 * The runtime's default logger: pino writing one JSON line per entry to standard error
 * (synchronously, so a crash loses no line), dropping entries below `level`.
 * @param level the lowest level written, or `'silent'` for none. @default 'info'
 */
export function createDefaultLogger(level: LogLevel | 'silent' = 'info'): Logger {
  return pino({ name: 'duro', level }, pino.destination({ dest: 2, sync: true }));
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
