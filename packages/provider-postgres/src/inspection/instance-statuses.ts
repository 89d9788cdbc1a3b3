/** The statuses an instance's current execution can have, as duroxide-pg stores them. */
export const INSTANCE_STATUSES = ['Running', 'Completed', 'Failed', 'ContinuedAsNew'] as const;

/** One of {@link INSTANCE_STATUSES}. */
export type InstanceStatus = (typeof INSTANCE_STATUSES)[number];

/** Whether `text` is one of {@link INSTANCE_STATUSES}. */
export function isInstanceStatus(text: string): text is InstanceStatus {
  return (INSTANCE_STATUSES as readonly string[]).includes(text);
}
