import { describe, expect, it } from 'vitest';
import { classifyFailure, toProviderError } from './errors.js';

/** An error shaped as `pg` reports a server error. */
function databaseError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code, severity: 'ERROR' });
}

describe('failure classification', () => {
  it.each([
    ['40001', 'conflict'],
    ['40P01', 'conflict'],
    ['0A000', 'conflict'],
    ['55P03', 'transient'],
    ['57014', 'transient'],
    ['57P01', 'transient'],
    ['08006', 'transient'],
    ['53300', 'transient'],
    ['23505', 'permanent'],
    ['P0001', 'permanent'],
  ])('SQLSTATE %s is a %s failure', (code, expected) => {
    expect(classifyFailure(databaseError(code, 'x'))).toBe(expected);
  });

  it('socket errors and pool timeouts are transient, programming errors permanent', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), {
      code: 'ECONNREFUSED',
    });
    expect(classifyFailure(refused)).toBe('transient');
    expect(classifyFailure(new Error('Connection terminated unexpectedly'))).toBe('transient');
    expect(classifyFailure(new Error('timeout exceeded when trying to connect'))).toBe('transient');
    expect(classifyFailure(new TypeError('x is not a function'))).toBe('permanent');
  });

  it('a procedure message callers match on becomes duroxide text, naming the instance', () => {
    const error = toProviderError(
      'ack_orchestration_item',
      databaseError('P0001', 'Invalid lock token'),
      { instance: 'i-1' },
      [{ whenMessageContains: 'Invalid lock token', detail: 'Invalid lock token' }],
    );
    expect(error.retryable).toBe(false);
    expect(error.message).toBe('ack_orchestration_item: Invalid lock token (instance i-1)');
  });

  it('other failures say what failed, keep the database message and are retryable when transient', () => {
    const error = toProviderError(
      'fetch_work_item',
      databaseError('57P01', 'terminating connection'),
    );
    expect(error.retryable).toBe(true);
    expect(error.message).toBe(
      'fetch_work_item: Connection lost or refused: terminating connection (SQLSTATE 57P01)',
    );
  });
});
