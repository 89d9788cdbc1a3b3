/**
 * Joined into the statements that claim work, so that their commit does not wait for the WAL
 * to reach the disk (`synchronous_commit = off` for that transaction alone). A claim only takes
 * a lease: should the server crash before the flush, the lease is gone and the work is delivered
 * again, as after a worker crash, while the holder's acknowledgement fails on its lock token.
 * Whatever is acknowledged still commits durably, and its flush carries the claim before it.
 * This saves a disk flush per turn and per activity batch.
 * @internal
 */
export const CLAIM_COMMIT_WITHOUT_FLUSH_WAIT =
  "CROSS JOIN set_config('synchronous_commit', 'off', true) AS claim_commit";
