-- The parent of a sub-orchestration (NULL for a root), for instance trees and cascading deletes.
ALTER TABLE instances ADD COLUMN parent_instance_id TEXT REFERENCES instances (instance_id);
CREATE INDEX IF NOT EXISTS idx_instances_parent ON instances (parent_instance_id);
