import type { Logger } from '../logger.js';
import type { ReplayState } from './replay-state.js';
import { requireString } from './task-arguments.js';

/** What an orchestration knows about itself. */
export interface OrchestrationInfo {
  /** The instance id. */
  readonly instanceId: string;
  /** 1 for the first execution, one more after each continue-as-new. */
  readonly executionId: number;
  /** The orchestration name the instance was started with. */
  readonly orchestrationName: string;
  /** The version this execution runs. */
  readonly orchestrationVersion: string;
}

/**
 * The part of the orchestration context that acts at once rather than through a yielded task:
 * identity, custom status, the instance's key-value store and traces. State changes are
 * recorded in history (`CustomStatusUpdated`, `KeyValueSet`, ...) and replayed in order.
 */
export class OrchestrationState implements OrchestrationInfo {
  /** The instance id. */
  readonly instanceId: string;
  readonly executionId: number;
  /** The orchestration name the instance was started with. */
  readonly orchestrationName: string;
  /** The version this execution runs. */
  readonly orchestrationVersion: string;

  /** @internal */
  constructor(
    info: OrchestrationInfo,
    private readonly state: ReplayState,
    private readonly logger: Logger,
    private readonly nowMs: () => number,
  ) {
    this.instanceId = info.instanceId;
    this.executionId = info.executionId;
    this.orchestrationName = info.orchestrationName;
    this.orchestrationVersion = info.orchestrationVersion;
  }

  // ----- Custom status (recorded as CustomStatusUpdated) -----

  /** Sets the custom status clients see (`waitForStatusChange`, `getStatus`). */
  setCustomStatus(status: string): void {
    const value = requireString('custom status', status);
    this.state.customStatus = value;
    this.state.emit({ type: 'UpdateCustomStatus', status: value });
  }

  /** Clears the custom status. */
  resetCustomStatus(): void {
    this.state.customStatus = null;
    this.state.emit({ type: 'UpdateCustomStatus', status: null });
  }

  /** The custom status as set so far, including one carried over by continue-as-new. */
  getCustomStatus(): string | null {
    return this.state.customStatus;
  }

  // ----- Key-value store (recorded as KeyValueSet / KeyValueCleared / KeyValuesCleared) -----

  /** Sets a key of this instance's key-value store. */
  setValue(key: string, value: string): void {
    const k = requireString('key', key);
    const v = requireString('value', value);
    const now = this.nowMs();
    this.state.kvValues.set(k, v);
    this.state.kvUpdatedAt.set(k, now);
    this.state.emit({ type: 'SetKeyValue', key: k, value: v, lastUpdatedAtMs: now });
  }

  /** A key's value, or `null`. */
  getValue(key: string): string | null {
    return this.state.kvValues.get(key) ?? null;
  }

  /** Removes a key. */
  clearValue(key: string): void {
    const k = requireString('key', key);
    this.state.kvValues.delete(k);
    this.state.kvUpdatedAt.delete(k);
    this.state.emit({ type: 'ClearKeyValue', key: k });
  }

  /** Removes every key. */
  clearAllValues(): void {
    this.state.kvValues.clear();
    this.state.kvUpdatedAt.clear();
    this.state.emit({ type: 'ClearKeyValues' });
  }

  /** Every key and value, keys in sorted order. */
  getKvAllValues(): Record<string, string> {
    const all: Record<string, string> = {};
    for (const key of this.getKvAllKeys()) all[key] = this.state.kvValues.get(key) ?? '';
    return all;
  }

  /** Every key, sorted. */
  getKvAllKeys(): string[] {
    return [...this.state.kvValues.keys()].sort();
  }

  /** How many keys the key-value store holds. */
  getKvLength(): number {
    return this.state.kvValues.size;
  }

  /**
   * Clears the keys last updated before `cutoffMs` (epoch milliseconds) in an earlier turn;
   * keys written in this turn are kept. Returns how many keys were cleared.
   */
  pruneKvValuesUpdatedBefore(cutoffMs: number): number {
    const keys = [...this.state.kvUpdatedAt]
      .filter(([key, updatedAt]) => updatedAt < cutoffMs && this.state.kvValues.has(key))
      .map(([key]) => key)
      .sort();
    for (const key of keys) this.clearValue(key);
    return keys.length;
  }

  // ----- Traces (suppressed while replaying) -----

  /** Logs at info level, with the instance's fields; silent while replaying. */
  traceInfo(message: string): void {
    this.trace('info', message);
  }

  /** Logs at warn level, with the instance's fields; silent while replaying. */
  traceWarn(message: string): void {
    this.trace('warn', message);
  }

  /** Logs at error level, with the instance's fields; silent while replaying. */
  traceError(message: string): void {
    this.trace('error', message);
  }

  /** Logs at debug level, with the instance's fields; silent while replaying. */
  traceDebug(message: string): void {
    this.trace('debug', message);
  }

  private trace(level: 'info' | 'warn' | 'error' | 'debug', message: string): void {
    if (this.state.isReplaying) return;
    this.logger[level](
      {
        target: 'duroxide::orchestration',
        instanceId: this.instanceId,
        executionId: this.executionId,
        orchestrationName: this.orchestrationName,
        orchestrationVersion: this.orchestrationVersion,
      },
      message,
    );
  }
}
