import { openSync } from 'node:fs';
import { LOG_FORMATS, type LogFormat } from './log-line-format.js';
import {
  DEFAULT_LOGGER_LEVELS,
  createDefaultLogger,
  type Logger,
  type LogLevel,
} from './logger.js';

/** Options of {@link initTracing}, as duroxide-node's `JsTracingOptions`. */
export interface TracingOptions {
  /** The file the runtime's log lines go to; appended to, created when missing. */
  readonly logFile: string;
  /** The lowest level written. @default 'info' */
  readonly logLevel?: LogLevel | 'trace';
  /** @default 'json' */
  readonly logFormat?: LogFormat;
}

// The process-wide log destination initTracing installs, as duroxide-node installs a global
// tracing subscriber: every runtime created afterwards without a `logger` of its own writes there.
let installed: { readonly logFile: string; readonly logger: Logger } | null = null;

/**
 * Sends the log lines of every runtime created from now on (those without their own `logger`
 * option) to `logFile`, as duroxide-node's `initTracing`. Call it once, before creating
 * runtimes; it then takes precedence over their `logLevel` and `logFormat` options, as the
 * first tracing subscriber does in duroxide-node.
 * @throws {Error} naming the file when it cannot be opened for appending, or when tracing was
 *   already initialised in this process.
 * @throws {RangeError} for a level or format it does not know.
 * @example
 * ```ts
 * initTracing({ logFile: '/var/log/orders/duro.log', logLevel: 'debug', logFormat: 'compact' });
 * const runtime = new Runtime(provider);
 * ```
 */
export function initTracing(options: TracingOptions): void {
  const { logFile, logLevel = 'info', logFormat = 'json' } = options;
  if (typeof logFile !== 'string' || logFile === '') {
    throw new TypeError(`initTracing: logFile must be a file path, got ${String(logFile)}`);
  }
  if (!DEFAULT_LOGGER_LEVELS.includes(logLevel) || (logLevel as string) === 'silent') {
    throw new RangeError(`initTracing: unknown logLevel ${String(logLevel)}`);
  }
  if (!LOG_FORMATS.includes(logFormat)) {
    throw new RangeError(`initTracing: unknown logFormat ${String(logFormat)}`);
  }
  if (installed !== null) {
    throw new Error(
      `initTracing: tracing is already initialised in this process (writing to ${installed.logFile})`,
    );
  }
  let fd: number;
  try {
    fd = openSync(logFile, 'a');
  } catch (error) {
    throw new Error(`initTracing: cannot open log file ${logFile}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  installed = { logFile, logger: createDefaultLogger(logLevel, { format: logFormat, fd }) };
}

/** The logger {@link initTracing} installed, or `null`. @internal */
export function tracingLogger(): Logger | null {
  return installed?.logger ?? null;
}
