import { WireFormatError } from './wire-format-error.js';

/**
 * Parses wire JSON text, turning a syntax error or a non-string argument into a
 * {@link WireFormatError} at `$`.
 * @internal
 */
export function parseWireJson(json: string): unknown {
  if (typeof json !== 'string') {
    throw new WireFormatError('$', `expected JSON text, found ${typeof json}`);
  }
  try {
    return JSON.parse(json);
  } catch (error) {
    throw new WireFormatError('$', `not valid JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
