import { readRows } from '../database/rows.js';
import type { InspectedSchema } from './inspected-schema.js';

/** An instance of a sub-orchestration tree, with its children ordered by id. */
export interface InstanceTreeNode {
  /** The instance id. */
  readonly instanceId: string;
  /** The orchestration the instance runs. */
  readonly orchestrationName: string;
  /** The status of its current execution (`null` while that execution has no row). */
  readonly status: string | null;
  /** Epoch ms. */
  readonly createdAtMs: number;
  /** The sub-orchestrations it started, by instance id. */
  readonly children: readonly InstanceTreeNode[];
}

/** The tree an instance belongs to, from its root. */
export interface InstanceHierarchy {
  /** The instance without a parent that the tree starts from. */
  readonly root: InstanceTreeNode;
  /** Whether the tree has more than the nodes read (see {@link readInstanceTree}). */
  readonly truncated: boolean;
}

/** Deepest nesting followed, up and down: a guard against a parent cycle written by hand. */
const MAX_DEPTH = 100;

/**
 * The sub-orchestration tree that `instanceId` belongs to: its root (followed up the parent
 * links) and every descendant, breadth first, up to `maxNodes` instances.
 * @param maxNodes most instances read. @default 1000
 * @returns `null` when the schema has no instance `instanceId`.
 */
export async function readInstanceTree(
  schema: InspectedSchema,
  instanceId: string,
  maxNodes = 1_000,
): Promise<InstanceHierarchy | null> {
  const s = schema.schemaSql;
  const { rows: rootRows } = await schema.pool.query<{ instance_id: string }>(
    `WITH RECURSIVE up AS (
       SELECT instance_id, parent_instance_id, 0 AS depth FROM ${s}.instances WHERE instance_id = $1
       UNION ALL
       SELECT i.instance_id, i.parent_instance_id, up.depth + 1
         FROM ${s}.instances i JOIN up ON i.instance_id = up.parent_instance_id
        WHERE up.depth < ${MAX_DEPTH}
     )
     SELECT instance_id FROM up ORDER BY depth DESC LIMIT 1`,
    [instanceId],
  );
  const rootId = rootRows[0]?.instance_id;
  if (rootId === undefined) return null;
  const { rows } = await schema.pool.query(
    `WITH RECURSIVE down AS (
       SELECT instance_id, NULL::text AS parent_id, 0 AS depth FROM ${s}.instances WHERE instance_id = $1
       UNION ALL
       SELECT i.instance_id, i.parent_instance_id, d.depth + 1
         FROM ${s}.instances i JOIN down d ON i.parent_instance_id = d.instance_id
        WHERE d.depth < ${MAX_DEPTH}
     )
     SELECT d.instance_id, d.parent_id, d.depth, i.orchestration_name, e.status, i.created_at
       FROM (SELECT * FROM down LIMIT $2) d
       JOIN ${s}.instances i ON i.instance_id = d.instance_id
       LEFT JOIN ${s}.executions e
         ON e.instance_id = i.instance_id AND e.execution_id = i.current_execution_id`,
    [rootId, maxNodes + 1],
  );
  // Parents before their children, so the nodes kept always reach the root.
  const readers = readRows('instance tree', rows)
    .map((row) => ({ row, depth: row.integer('depth'), id: row.text('instance_id') }))
    .sort((a, b) => a.depth - b.depth || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, maxNodes)
    .map(({ row }) => row);
  const children = new Map<string, string[]>();
  const nodes = new Map<string, Omit<InstanceTreeNode, 'children'>>();
  for (const row of readers) {
    const id = row.text('instance_id');
    nodes.set(id, {
      instanceId: id,
      orchestrationName: row.text('orchestration_name'),
      status: row.optionalText('status'),
      createdAtMs: row.epochMs('created_at'),
    });
    const parent = row.optionalText('parent_id');
    if (parent !== null) children.set(parent, [...(children.get(parent) ?? []), id]);
  }
  const build = (id: string): InstanceTreeNode => {
    const node = nodes.get(id);
    if (!node) throw new Error(`instance tree: ${id} was not read`);
    return { ...node, children: (children.get(id) ?? []).map(build) };
  };
  return { root: build(rootId), truncated: rows.length > maxNodes };
}
