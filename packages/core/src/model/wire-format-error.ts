const WIRE_FORMAT_ERROR = Symbol.for('@duro/core/WireFormatError');

/**
 * JSON that is not a valid duroxide history event, work item or error details value: not JSON
 * at all, an unknown variant, a missing required field, a value of the wrong JSON type, or an
 * integer outside the unsigned range a JavaScript number holds exactly. Also thrown when
 * encoding a value whose integers are not such unsigned integers.
 */
export class WireFormatError extends Error {
  /** Always `'WireFormatError'`. */
  override readonly name = 'WireFormatError';
  /** @internal brand checked by {@link WireFormatError.isInstance} */
  readonly [WIRE_FORMAT_ERROR] = true;

  constructor(
    /**
     * Where the problem is, as a JSONPath into the wire JSON (`$` is the value itself), such as
     * `$.details.Application.kind` or `$.ContinueAsNew.carry_forward_events[1][0]`.
     */
    readonly path: string,
    /** What is wrong there, without the path, such as `unknown history event type "Foo"`. */
    readonly problem: string,
    options?: { cause?: unknown },
  ) {
    super(`${problem} at ${path}`, options);
  }

  /**
   * Whether `value` is a `WireFormatError`, also when it comes from another copy of `@duro/core`
   * in `node_modules` (where `instanceof` would say no).
   */
  static isInstance(value: unknown): value is WireFormatError {
    return typeof value === 'object' && value !== null && WIRE_FORMAT_ERROR in value;
  }
}
