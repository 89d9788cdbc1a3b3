/**
 * The clause a claim statement carries after its `FROM` clause when the provider runs with
 * `nonDurableClaims`: it sets `synchronous_commit = off` for the claim's own transaction, so the
 * claim's commit does not wait for the WAL to reach the disk. The connection's setting is
 * untouched, so acknowledgements, enqueues and client writes on it still commit as the server is
 * configured. Without the option claims carry nothing and commit as durably as everything else.
 * @internal
 */
export const CLAIM_COMMIT_WITHOUT_FLUSH_WAIT =
  "CROSS JOIN set_config('synchronous_commit', 'off', true) AS claim_commit";

/** The `claimCommit` clause of claim statements for a provider's choice of claim durability. @internal */
export function claimCommitClause(nonDurableClaims: boolean): string {
  return nonDurableClaims ? CLAIM_COMMIT_WITHOUT_FLUSH_WAIT : '';
}
