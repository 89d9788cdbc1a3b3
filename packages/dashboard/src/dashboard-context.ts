import type { Client, ManagementClient } from '@duro/core';
import type { FleetAssumptions, SchemaInspector } from '@duro/provider-postgres/inspection';
import type { QueueSampler } from './queue-sampler.js';

/** What the API handlers work with: the reads, the clients for actions, and the sampler. */
export interface DashboardContext {
  readonly inspector: SchemaInspector;
  readonly client: Client;
  readonly management: ManagementClient;
  readonly sampler: QueueSampler;
  readonly fleet: FleetAssumptions;
  readonly actionsEnabled: boolean;
  readonly csrfToken: string;
  /** Writes one line to the dashboard's log. */
  log(line: string): void;
}

/** A request the API refuses, with the HTTP status to answer and a message for the page. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: 400 | 403 | 404 | 405 | 409 | 413,
    message: string,
  ) {
    super(message);
  }
}
