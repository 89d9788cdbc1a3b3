import { sessionLockExpiryValidations } from './lock-expiry.js';
import { sessionMaintenanceValidations } from './maintenance.js';
import { sessionOwnershipValidations } from './ownership.js';
import { sessionRoutingValidations } from './routing.js';
import { defineValidationGroup } from '../validation-group.js';

/**
 * duroxide `provider_validation::sessions`: implicit session routing. Activities with the same
 * `sessionId` go to the worker that owns the session; ownership is claimed by fetching, kept by
 * renewal and activity, and lapses when its lock expires. Split into files by concern; the
 * spread order is the Rust file's order.
 */
export const sessions = defineValidationGroup('sessions', {
  ...sessionRoutingValidations,
  ...sessionMaintenanceValidations,
  ...sessionOwnershipValidations,
  ...sessionLockExpiryValidations,
});
