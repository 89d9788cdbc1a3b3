// Inputs, outputs and event data travel as text; these two functions are the one place that text
// is made from and read back into JavaScript values, by the client and the runtime alike.

/**
 * Encodes a task input the way duroxide-node does: JSON text, with `undefined` as `null`.
 * @throws {TypeError} when the value cannot be written as JSON (a `BigInt`, a cycle).
 */
export function encodePayload(value: unknown): string {
  const text = JSON.stringify(value === undefined ? null : value) as string | undefined;
  if (text === undefined) throw new TypeError(`cannot encode ${typeof value} as JSON`);
  return text;
}

/** Parses a payload as the JS SDK does: JSON when it is JSON, the raw text otherwise. */
export function parsePayload(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
