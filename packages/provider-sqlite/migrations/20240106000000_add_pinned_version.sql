-- The duroxide version an execution is pinned to, for capability filtering; NULL = any runtime.
ALTER TABLE executions ADD COLUMN duroxide_version_major INTEGER;
ALTER TABLE executions ADD COLUMN duroxide_version_minor INTEGER;
ALTER TABLE executions ADD COLUMN duroxide_version_patch INTEGER;
