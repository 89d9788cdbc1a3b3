import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDefaultLogger } from './logger.js';

const directory = mkdtempSync(join(tmpdir(), 'duro-logger-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** What the built-in logger wrote to a file with these options. */
function written(
  options: Parameters<typeof createDefaultLogger>[1],
  log: (logger: ReturnType<typeof createDefaultLogger>) => void,
  level: Parameters<typeof createDefaultLogger>[0] = 'info',
): string {
  const file = join(directory, `${Math.random().toString(16).slice(2)}.log`);
  const fd = openSync(file, 'a');
  try {
    log(createDefaultLogger(level, { ...options, fd }));
  } finally {
    closeSync(fd);
  }
  return readFileSync(file, 'utf8');
}

describe('the built-in logger', () => {
  it('writes one JSON object per line by default, named duro', () => {
    const text = written({}, (logger) => logger.info({ instance: 'order-7' }, 'turn done'));
    const line = JSON.parse(text) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 30, name: 'duro', msg: 'turn done', instance: 'order-7' });
    expect(typeof line.time).toBe('number');
  });

  it('compact writes one readable line: time, level, service name, message, then the fields', () => {
    const text = written({ format: 'compact', serviceName: 'orders' }, (logger) =>
      logger.warn({ instance: 'order-7', attempt: 2, note: 'two words' }, 'retrying'),
    );
    expect(text).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z {2}WARN orders: retrying instance=order-7 attempt=2 note="two words"\n$/,
    );
  });

  it('pretty writes the readable line, then one indented line per field', () => {
    const text = written({ format: 'pretty', serviceVersion: '2.1.0' }, (logger) =>
      logger.error({ instance: 'order-7' }, 'failed'),
    );
    const [head, ...fields] = text.trimEnd().split('\n');
    expect(head).toMatch(/Z ERROR duro: failed$/);
    expect(fields).toEqual(['    serviceVersion: 2.1.0', '    instance: order-7']);
  });

  it("'trace' writes debug lines and 'warn' drops info lines", () => {
    const debug = written({}, (logger) => logger.debug({}, 'detail'), 'trace');
    expect(JSON.parse(debug)).toMatchObject({ level: 20, msg: 'detail' });
    expect(written({}, (logger) => logger.info({}, 'hidden'), 'warn')).toBe('');
  });

  it('refuses a level or a format it does not know, naming it', () => {
    expect(() => createDefaultLogger('verbose' as 'info')).toThrow(/log level .* got verbose/);
    expect(() => createDefaultLogger('info', { format: 'xml' as 'json' })).toThrow(
      /log format .* got xml/,
    );
  });
});
