import { randomUUID } from 'node:crypto';
import type { Provider } from '../../provider/provider.js';
import type { ActivityContext } from '../activity-context.js';
import {
  SYSCALL_GET_KV_VALUE,
  SYSCALL_NEW_GUID,
  SYSCALL_UTC_NOW_MS,
} from '../replay/task-builder.js';

type Finished =
  { readonly ok: true; readonly result: string } | { readonly ok: false; readonly error: string };

/** A built-in activity: raw input in, raw result out (no JSON wrapping, as duroxide's). */
type BuiltinActivity = (
  ctx: ActivityContext,
  input: string,
  provider: Provider,
) => Promise<Finished>;

async function getKvValue(
  _ctx: ActivityContext,
  input: string,
  provider: Provider,
): Promise<Finished> {
  let request: { instance_id?: unknown; key?: unknown };
  try {
    request = JSON.parse(input) as typeof request;
  } catch (error) {
    return { ok: false, error: `get_kv_value: invalid input: ${String(error)}` };
  }
  if (typeof request.instance_id !== 'string')
    return { ok: false, error: 'get_kv_value: missing instance_id' };
  if (typeof request.key !== 'string') return { ok: false, error: 'get_kv_value: missing key' };
  try {
    return {
      ok: true,
      result: JSON.stringify(await provider.getKvValue(request.instance_id, request.key)),
    };
  } catch (error) {
    return {
      ok: false,
      error: `get_kv_value client error: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

const BUILTINS = new Map<string, BuiltinActivity>([
  [SYSCALL_NEW_GUID, () => Promise.resolve({ ok: true, result: randomUUID() })],
  [SYSCALL_UTC_NOW_MS, () => Promise.resolve({ ok: true, result: String(Date.now()) })],
  [SYSCALL_GET_KV_VALUE, getKvValue],
]);

/**
 * The built-in activity behind `newGuid`, `utcNow` or `getValueFromInstance`, or `undefined`.
 * @internal
 */
export function builtinActivity(name: string): BuiltinActivity | undefined {
  return BUILTINS.get(name);
}
