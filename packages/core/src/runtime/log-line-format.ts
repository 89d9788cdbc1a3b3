import { writeSync } from 'node:fs';

/**
 * How the built-in logger writes a line: `'json'`, one JSON object per line (pino's own, for log
 * collectors); `'compact'`, one readable line (`time LEVEL name: message key=value …`);
 * `'pretty'`, the readable line followed by one indented line per field.
 */
export type LogFormat = 'json' | 'pretty' | 'compact';

/** The log formats, for checking options. @internal */
export const LOG_FORMATS: readonly LogFormat[] = ['json', 'pretty', 'compact'];

// pino's numeric levels.
const LEVEL_NAMES: Readonly<Record<number, string>> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

// Fields pino adds to every line; the readable formats show time, level, name and message in the
// head of the line and leave process and host out.
const HEAD_FIELDS = new Set(['level', 'time', 'pid', 'hostname', 'name', 'msg']);

/** A field value as the readable formats show it: bare words bare, everything else as JSON. */
function shown(value: unknown): string {
  if (typeof value === 'string' && /^[\w.:/@-]+$/.test(value)) return value;
  return JSON.stringify(value) ?? String(value);
}

/** One pino JSON line in a readable format. @internal */
export function formatLogLine(line: string, format: 'pretty' | 'compact'): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString() : '';
  const level = LEVEL_NAMES[entry.level as number] ?? String(entry.level);
  const name = typeof entry.name === 'string' ? ` ${entry.name}:` : '';
  const message = typeof entry.msg === 'string' ? entry.msg : shown(entry.msg ?? '');
  const head = `${time} ${level.padStart(5)}${name} ${message}`;
  const fields = Object.entries(entry).filter(([key]) => !HEAD_FIELDS.has(key));
  if (format === 'compact') {
    const tail = fields.map(([key, value]) => ` ${key}=${shown(value)}`).join('');
    return `${head}${tail}\n`;
  }
  const lines = fields.map(([key, value]) => `\n    ${key}: ${shown(value)}`).join('');
  return `${head}${lines}\n`;
}

/**
 * A pino destination writing to file descriptor `fd` synchronously (a crash loses no line), in
 * `format`.
 * @internal
 */
export function logDestination(fd: number, format: LogFormat): { write(line: string): void } {
  return {
    write(line: string): void {
      writeSync(fd, format === 'json' ? line : formatLogLine(line, format));
    },
  };
}
