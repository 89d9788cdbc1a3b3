import type { FleetAssumptions } from '@duro/provider-postgres/inspection';

/** How a dashboard reads and serves one schema. */
export interface DashboardOptions {
  /** The PostgreSQL URL (`postgres://...`). */
  readonly databaseUrl: string;
  /** The schema to show. @default 'public' */
  readonly schema?: string;
  /**
   * Whether the dashboard may change anything: raise an event, enqueue a message, cancel,
   * delete, prune. Each action is confirmed in the page and logged. @default false
   */
  readonly allowActions?: boolean;
  /**
   * A secret every request must carry: once as `?token=` (the page then keeps it in a cookie),
   * or as `Authorization: Bearer <token>`. No token: every request is served.
   */
  readonly accessToken?: string;
  /**
   * The host names (without port) that requests may address in their `Host` header; others are
   * refused, which stops a foreign site from reaching the dashboard through DNS rebinding.
   * `undefined` accepts any. `startDashboard` on a loopback address defaults to
   * `localhost`, `127.0.0.1` and `[::1]`.
   */
  readonly allowedHosts?: readonly string[];
  /** Where the dashboard's log lines (actions taken and refused) go. @default standard error */
  readonly log?: (line: string) => void;
  /** How often the queue figures are sampled for the plots, ms (at least 100). @default 5000 */
  readonly sampleIntervalMs?: number;
  /** How many samples are kept. @default 720 (an hour at 5 s) */
  readonly sampleCount?: number;
  /** What the runtimes serving the schema are configured with, for the `why` diagnosis. */
  readonly fleet?: Partial<FleetAssumptions>;
  /**
   * The path the dashboard is served under, as the browser sees it, when an app mounts
   * `Dashboard.handle` beside its own routes; requests under it are served with it removed.
   * @default '/'
   */
  readonly basePath?: string;
}

/** Options of {@link startDashboard}: a dashboard with its own HTTP server. */
export interface StartDashboardOptions extends DashboardOptions {
  /**
   * The address to listen on. Any address other than `127.0.0.1`, `::1` or `localhost` needs an
   * access token: one is generated when `accessToken` is not given. @default '127.0.0.1'
   */
  readonly host?: string;
  /** The port; 0 takes a free one. @default 4300 */
  readonly port?: number;
}

/** A dashboard option that cannot be used; the message names it. */
export class DashboardOptionsError extends Error {
  /** Always `DashboardOptionsError`. */
  override readonly name = 'DashboardOptionsError';
}

/** The host names that reach this machine only. */
export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', '::1', 'localhost'];
