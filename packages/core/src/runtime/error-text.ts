/**
 * The text duro records for a value thrown by an activity or an orchestration.
 *
 * An `Error` is recorded by its message alone, as a Rust activity or orchestration returning
 * `Err(message)` records it, so histories written by duro and by duroxide read the same and an
 * orchestration that catches a failure sees the message that was thrown. duroxide-node adds its
 * napi status to activity failures ("... JS execution failed: GenericFailure, Error: msg"); duro
 * does not copy that prefix.
 */
export function errorText(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}
