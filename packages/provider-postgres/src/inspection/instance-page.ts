import { readRows, type RowReader } from '../database/rows.js';
import type { InspectedSchema } from './inspected-schema.js';
import { InspectionError } from './inspection-error.js';
import {
  decodeInstanceCursor,
  encodeInstanceCursor,
  type InstancePosition,
} from './instance-page-cursor.js';
import { isInstanceStatus, INSTANCE_STATUSES, type InstanceStatus } from './instance-statuses.js';

/** Which instances a list shows; every given field must match. */
export interface InstanceListFilter {
  /** The status of the instance's current execution. */
  readonly status?: InstanceStatus;
  /** The orchestration's registered name, matched exactly. */
  readonly orchestrationName?: string;
  /** The orchestration version the instance was started with, matched exactly. */
  readonly orchestrationVersion?: string;
  /** The start of the instance id, matched literally (`%` and `_` are plain characters). */
  readonly idPrefix?: string;
  /** Created at or after this time, epoch ms. */
  readonly createdFromMs?: number;
  /** Created before this time, epoch ms. */
  readonly createdBeforeMs?: number;
}

/** One page of instances, newest first. */
export interface InstancePageRequest extends InstanceListFilter {
  /** Most instances on the page, 1 to {@link MAX_PAGE_SIZE}. @default 50 */
  readonly limit?: number;
  /** The `next` of the previous page; absent for the newest instances. */
  readonly after?: string;
}

/** An instance as a list shows it. */
export interface ListedInstance {
  /** The instance id. */
  readonly instanceId: string;
  /** The orchestration the instance runs. */
  readonly orchestrationName: string;
  /** The orchestration version it was started with; `null` when none was recorded. */
  readonly orchestrationVersion: string | null;
  /**
   * The status of its current execution (`Running`, `Completed`, `Failed`, `ContinuedAsNew`, ...).
   */
  readonly status: string;
  /** Its current execution, 1 for the first and one more after each continue-as-new. */
  readonly executionId: number;
  /** The instance that started it as a sub-orchestration; `null` for a root. */
  readonly parentInstanceId: string | null;
  /** Epoch ms. */
  readonly createdAtMs: number;
  /** Epoch ms of the last committed turn. */
  readonly updatedAtMs: number;
}

/** A page of instances and where the next one starts. */
export interface InstancePage {
  /** The instances of the page, newest first. */
  readonly instances: readonly ListedInstance[];
  /**
   * The cursor of the next page (pass it as `after`), or `null` when no older instance matches.
   * It is given with fewer than `limit` instances when the read stopped at its bound (see
   * `searchedBackToMs`): then the next page goes on from where this one stopped looking.
   */
  readonly next: string | null;
  /**
   * Set when the read stopped at its bound before filling the page: it examined the instances
   * created down to this time (epoch ms) and found only these; `next` searches on from there.
   */
  readonly searchedBackToMs: number | null;
}

/** The page size when a request names none. */
export const DEFAULT_PAGE_SIZE = 50;
/** The largest page a request may ask for. */
export const MAX_PAGE_SIZE = 500;

/**
 * Most instances one page read examines when it walks the instances newest first and filters
 * them: some 5 µs apiece on a two-core server (bench/inspection-queries-cost.mjs), so a read
 * stays under 100 ms whatever share of the instances the filter keeps.
 */
const WALK_BOUND = 10_000;
/**
 * Up to this many instances with the requested id prefix, or executions with the requested
 * status, are read whole and sorted (some 12 µs apiece); more are walked instead.
 */
const CANDIDATE_BOUND = 2_000;

const COLUMNS = `i.instance_id, i.orchestration_name, i.orchestration_version, e.status,
       i.current_execution_id, i.parent_instance_id,
       (EXTRACT(EPOCH FROM i.created_at) * 1000000)::bigint AS created_us,
       (EXTRACT(EPOCH FROM i.updated_at) * 1000)::bigint AS updated_ms`;
const NEWEST_FIRST = 'ORDER BY i.created_at DESC, i.instance_id DESC';

/** The SQL conditions of a request and their parameters. */
class Conditions {
  readonly #clauses: string[] = [];

  /** `values` are bound first, as `$1`, `$2`, ... of SQL written around the conditions. */
  constructor(readonly values: unknown[] = []) {}

  /** Adds the clause `write` returns, given the placeholder of each value. */
  add(write: (...placeholders: string[]) => string, ...values: unknown[]): void {
    const placeholders = values.map((value) => `$${this.values.push(value)}`);
    this.#clauses.push(write(...placeholders));
  }

  where(): string {
    return this.#clauses.length === 0 ? '' : `WHERE ${this.#clauses.join(' AND ')}`;
  }
}

/**
 * Reads one page of instances, newest first (by creation time, then id, descending), with the
 * status of their current execution.
 *
 * A read never examines more than a bounded number of rows. It starts from the narrowest index
 * the filter allows: the instances with the id prefix, or the executions with the status, when
 * there are few of them (it counts them first, up to the bound); otherwise it walks the instances
 * newest first (within one orchestration name when one is given) and keeps those that match,
 * stopping after 10,000. A walk that stops before the page is full returns what it found, the time
 * it searched back to, and a `next` cursor that goes on from there.
 *
 * @throws {InspectionError} (`invalid-request`) for an unknown status, a limit out of range, a
 * time that is not a number, or a cursor no page returned.
 */
export async function readInstancePage(
  schema: InspectedSchema,
  request: InstancePageRequest,
): Promise<InstancePage> {
  const limit = checkRequest(request);
  const after = request.after === undefined ? null : decodeInstanceCursor(request.after);
  const prefix =
    request.idPrefix === undefined ? undefined : `${escapeLikePattern(request.idPrefix)}%`;
  if (
    prefix !== undefined &&
    (await countUpTo(schema, 'instances', 'instance_id LIKE $1', prefix, CANDIDATE_BOUND))
  ) {
    return readCandidates(schema, request, after, limit, prefix, {
      sql: `SELECT instance_id FROM ${schema.schemaSql}.instances WHERE instance_id LIKE $1`,
      value: prefix,
      joinsExecution: false,
    });
  }
  if (
    request.status !== undefined &&
    (await countUpTo(schema, 'executions', 'status = $1', request.status, CANDIDATE_BOUND))
  ) {
    return readCandidates(schema, request, after, limit, prefix, {
      sql: `SELECT instance_id, execution_id FROM ${schema.schemaSql}.executions WHERE status = $1`,
      value: request.status,
      joinsExecution: true,
    });
  }
  return walkNewestFirst(schema, request, after, limit, prefix);
}

function checkRequest(request: InstancePageRequest): number {
  if (request.status !== undefined && !isInstanceStatus(request.status)) {
    throw new InspectionError(
      `status must be one of ${INSTANCE_STATUSES.join(', ')}, got '${String(request.status)}'`,
      'invalid-request',
    );
  }
  for (const [name, value] of [
    ['createdFromMs', request.createdFromMs],
    ['createdBeforeMs', request.createdBeforeMs],
  ] as const) {
    if (value !== undefined && !Number.isFinite(value)) {
      throw new InspectionError(
        `${name} must be epoch milliseconds, got ${value}`,
        'invalid-request',
      );
    }
  }
  const limit = request.limit ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw new InspectionError(
      `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}, got ${limit}`,
      'invalid-request',
    );
  }
  return limit;
}

/** `text` as the start of a LIKE pattern that matches it literally. */
function escapeLikePattern(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** Whether `table` has at most `bound` rows where `condition` holds (reading at most bound + 1). */
async function countUpTo(
  schema: InspectedSchema,
  table: 'instances' | 'executions',
  condition: string,
  value: string,
  bound: number,
): Promise<boolean> {
  const { rows } = await schema.pool.query<{ found: string }>(
    `SELECT count(*) AS found FROM (SELECT 1 FROM ${schema.schemaSql}.${table} WHERE ${condition} LIMIT ${bound + 1}) c`,
    [value],
  );
  return Number(rows[0]?.found ?? 0) <= bound;
}

/** The conditions on the instance row and its current execution, as `i` and `e`. */
function filterConditions(
  conditions: Conditions,
  filter: InstanceListFilter,
  after: InstancePosition | null,
  prefix: string | undefined,
  parts: { readonly driving: boolean; readonly filtering: boolean },
): void {
  if (parts.driving) {
    if (filter.orchestrationName !== undefined) {
      conditions.add((name) => `i.orchestration_name = ${name}`, filter.orchestrationName);
    }
    if (filter.createdFromMs !== undefined) {
      conditions.add(
        (from) => `i.created_at >= to_timestamp(${from}::float8 / 1000)`,
        filter.createdFromMs,
      );
    }
    if (filter.createdBeforeMs !== undefined) {
      conditions.add(
        (before) => `i.created_at < to_timestamp(${before}::float8 / 1000)`,
        filter.createdBeforeMs,
      );
    }
    if (after !== null) {
      conditions.add(
        (us, id) =>
          `(i.created_at, i.instance_id) < ('epoch'::timestamptz + ${us}::bigint * interval '1 microsecond', ${id}::text)`,
        after.createdAtUs.toString(),
        after.instanceId,
      );
    }
  }
  if (parts.filtering) {
    if (filter.status !== undefined)
      conditions.add((status) => `e.status = ${status}`, filter.status);
    if (filter.orchestrationVersion !== undefined) {
      conditions.add(
        (version) => `i.orchestration_version = ${version}`,
        filter.orchestrationVersion,
      );
    }
    if (prefix !== undefined) conditions.add((pattern) => `i.instance_id LIKE ${pattern}`, prefix);
  }
}

/** Reads a small candidate set whole (materialized, so the planner starts from it) and sorts it. */
async function readCandidates(
  schema: InspectedSchema,
  filter: InstanceListFilter,
  after: InstancePosition | null,
  limit: number,
  prefix: string | undefined,
  candidates: { readonly sql: string; readonly value: string; readonly joinsExecution: boolean },
): Promise<InstancePage> {
  const conditions = new Conditions([candidates.value]);
  filterConditions(conditions, filter, after, prefix, { driving: true, filtering: true });
  const s = schema.schemaSql;
  const { rows } = await schema.pool.query(
    `WITH candidates AS MATERIALIZED (${candidates.sql})
     SELECT ${COLUMNS}
       FROM candidates c
       JOIN ${s}.instances i ON i.instance_id = c.instance_id${candidates.joinsExecution ? ' AND i.current_execution_id = c.execution_id' : ''}
       JOIN ${s}.executions e ON e.instance_id = i.instance_id AND e.execution_id = i.current_execution_id
      ${conditions.where()}
      ${NEWEST_FIRST}
      LIMIT ${limit + 1}`,
    conditions.values,
  );
  return page(rows, limit, null);
}

/** Walks the instances newest first, examining at most {@link WALK_BOUND} of them. */
async function walkNewestFirst(
  schema: InspectedSchema,
  filter: InstanceListFilter,
  after: InstancePosition | null,
  limit: number,
  prefix: string | undefined,
): Promise<InstancePage> {
  const s = schema.schemaSql;
  const walk = new Conditions();
  filterConditions(walk, filter, after, prefix, { driving: true, filtering: false });
  const walked = `SELECT * FROM ${s}.instances i ${walk.where()} ${NEWEST_FIRST}`;
  const conditions = new Conditions([...walk.values]);
  filterConditions(conditions, filter, after, prefix, { driving: false, filtering: true });
  const { rows } = await schema.pool.query(
    `SELECT ${COLUMNS}
       FROM (${walked} LIMIT ${WALK_BOUND}) i
       JOIN ${s}.executions e ON e.instance_id = i.instance_id AND e.execution_id = i.current_execution_id
      ${conditions.where()}
      ${NEWEST_FIRST}
      LIMIT ${limit + 1}`,
    conditions.values,
  );
  if (rows.length > limit) return page(rows, limit, null);
  // Fewer than a page: either nothing older matches, or the walk reached its bound.
  const { rows: bound } = await schema.pool.query(
    `SELECT (EXTRACT(EPOCH FROM i.created_at) * 1000000)::bigint AS created_us, i.instance_id
       FROM (${walked} OFFSET ${WALK_BOUND - 1} LIMIT 1) i`,
    walk.values,
  );
  const [last] = readRows('list instances', bound);
  return page(rows, limit, last ? positionOf(last) : null);
}

function positionOf(row: RowReader): InstancePosition {
  return { createdAtUs: row.bigint('created_us'), instanceId: row.text('instance_id') };
}

function page(
  rows: readonly unknown[],
  limit: number,
  searched: InstancePosition | null,
): InstancePage {
  const readers = readRows('list instances', rows);
  const shown = readers.slice(0, limit);
  const instances = shown.map((row): ListedInstance => ({
    instanceId: row.text('instance_id'),
    orchestrationName: row.text('orchestration_name'),
    orchestrationVersion: row.optionalText('orchestration_version'),
    status: row.text('status'),
    executionId: row.integer('current_execution_id'),
    parentInstanceId: row.optionalText('parent_instance_id'),
    createdAtMs: Number(row.bigint('created_us') / 1000n),
    updatedAtMs: row.integer('updated_ms'),
  }));
  const last = shown.at(-1);
  if (readers.length > limit && last) {
    return { instances, next: encodeInstanceCursor(positionOf(last)), searchedBackToMs: null };
  }
  if (searched) {
    return {
      instances,
      next: encodeInstanceCursor(searched),
      searchedBackToMs: Number(searched.createdAtUs / 1000n),
    };
  }
  return { instances, next: null, searchedBackToMs: null };
}
