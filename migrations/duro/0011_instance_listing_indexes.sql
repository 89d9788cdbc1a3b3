-- duro 0011 instance listing indexes: an operator's list of instances (duro list, duro ui) pages
-- newest first, filters by status, orchestration name or instance id prefix, and counts instances
-- by status, in bounded time on a schema of millions of instances.
--
-- duroxide-pg indexes instances by id and by parent only, and executions by their key. Without
-- these indexes a newest-first page sorts every instance, a status filter or count reads every
-- execution, and an id prefix reads every instance (the key's collation is the database's, which
-- a LIKE prefix cannot use unless it is C).
--
-- duro_idx_instances_created: newest-first pages, time ranges, and the position a page resumes
-- from (created_at, instance_id).
-- duro_idx_instances_name_created: the same, within one orchestration name.
-- duro_idx_instances_id_pattern: instance ids by prefix (text_pattern_ops serves LIKE 'p%' in any
-- collation).
-- duro_idx_executions_status: executions by status, for counts by status and for the instances
-- of a rare status; it carries the execution's key, so a count reads the index alone.
--
-- Cost for writers: an instance row is inserted once and then updated in columns none of these
-- indexes hold (updated_at, custom status), so its updates stay HOT; an execution's status
-- changes once or twice in its life, and each change writes one more index entry.
--
-- The indexes are built while the migration holds the tables, as duroxide-pg builds its own: on a
-- large schema, create them beforehand with CREATE INDEX CONCURRENTLY IF NOT EXISTS and the same
-- names and definitions, and this file keeps them (see @duro/dashboard's README).

CREATE INDEX IF NOT EXISTS duro_idx_instances_created
    ON {{schema}}.instances (created_at, instance_id);

CREATE INDEX IF NOT EXISTS duro_idx_instances_name_created
    ON {{schema}}.instances (orchestration_name, created_at, instance_id);

CREATE INDEX IF NOT EXISTS duro_idx_instances_id_pattern
    ON {{schema}}.instances (instance_id text_pattern_ops);

CREATE INDEX IF NOT EXISTS duro_idx_executions_status
    ON {{schema}}.executions (status, instance_id, execution_id);
