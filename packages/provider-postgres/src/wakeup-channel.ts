import { createHash } from 'node:crypto';
import { validateSchemaName } from './migrations/schema-name.js';

/** The queues that send wake-up notifications. */
export type WakeupQueue = 'orchestrator' | 'worker';

const PREFIX: Readonly<Record<WakeupQueue, string>> = {
  orchestrator: 'duro_orch_',
  worker: 'duro_work_',
};

/** PostgreSQL's limit on a channel name (an identifier), in bytes. */
const MAX_CHANNEL_BYTES = 63;

/**
 * The LISTEN/NOTIFY channel on which a schema's queue announces fetchable work (duro extension
 * migration 0001): `duro_orch_<schema>` or `duro_work_<schema>`, with the schema name in lower
 * case as PostgreSQL stores it. When that would exceed 63 bytes, the name keeps the first 40
 * characters of the schema and appends `_` and the first 12 hex digits of the md5 of the
 * lower-case schema name, so it stays unique and at most 63 bytes. The channel is a lower-case
 * identifier: `LISTEN` needs no quoting. The same rule is `duro_wakeup_channel()` in
 * `migrations/duro/0001_wakeup_notifications.sql`; the two must change together.
 *
 * @throws {InvalidSchemaNameError} for a schema name that is not a safe identifier.
 */
export function wakeupChannel(schema: string, queue: WakeupQueue): string {
  const folded = validateSchemaName(schema).toLowerCase();
  const prefix = PREFIX[queue];
  if (prefix.length + folded.length <= MAX_CHANNEL_BYTES) return prefix + folded;
  const digest = createHash('md5').update(folded).digest('hex').slice(0, 12);
  return `${prefix}${folded.slice(0, 40)}_${digest}`;
}
