//! Plain data objects passed to and returned by a JavaScript provider. Numbers that duroxide
//! holds as `u64` are JavaScript numbers here (`i64` on the Rust side), durations are
//! milliseconds, and events and work items are duroxide serde JSON strings.

use std::collections::HashMap;

use napi_derive::napi;

/// An inclusive range of duroxide versions, such as `0.0.0` to `0.1.32`.
#[napi(object)]
pub struct WireSemverRange {
    pub min: String,
    pub max: String,
}

/// duroxide's `DispatcherCapabilityFilter`.
#[napi(object)]
pub struct WireCapabilityFilter {
    pub supported_duroxide_versions: Vec<WireSemverRange>,
}

/// duroxide's `TagFilter`: `type` is the variant name; `tags` is empty unless the variant is
/// `Tags` or `DefaultAnd`.
#[napi(object)]
pub struct WireTagFilter {
    #[napi(js_name = "type", ts_type = "'DefaultOnly' | 'Tags' | 'DefaultAnd' | 'Any' | 'None'")]
    pub variant: String,
    pub tags: Vec<String>,
}

/// duroxide's `SessionFetchConfig`.
#[napi(object)]
pub struct WireSessionFetchConfig {
    pub owner_id: String,
    pub lock_timeout_ms: i64,
}

/// duroxide's `ExecutionMetadata`; `null` means "leave unchanged".
#[napi(object, use_nullable = true)]
pub struct WireExecutionMetadata {
    pub status: Option<String>,
    pub output: Option<String>,
    pub orchestration_name: Option<String>,
    pub orchestration_version: Option<String>,
    pub parent_instance_id: Option<String>,
    /// A semantic version such as `0.1.32`.
    pub pinned_duroxide_version: Option<String>,
}

/// duroxide's `ScheduledActivityIdentifier`.
#[napi(object)]
pub struct WireScheduledActivityIdentifier {
    pub instance: String,
    pub execution_id: i64,
    pub activity_id: i64,
}

/// One committed key-value entry.
#[napi(object)]
pub struct WireKvEntry {
    pub value: String,
    pub last_updated_at_ms: i64,
}

/// duroxide's `OrchestrationItem`, with history and messages as serde JSON.
#[napi(object, use_nullable = true)]
pub struct WireOrchestrationItem {
    pub instance: String,
    pub orchestration_name: String,
    pub execution_id: i64,
    pub version: String,
    /// One `Event` JSON string per history event, in event-id order.
    pub history: Vec<String>,
    /// One `WorkItem` JSON string per locked message.
    pub messages: Vec<String>,
    pub history_error: Option<String>,
    pub kv_snapshot: HashMap<String, WireKvEntry>,
}

/// A fetched orchestration item with its lock.
#[napi(object)]
pub struct WireFetchedOrchestrationItem {
    pub item: WireOrchestrationItem,
    pub lock_token: String,
    pub attempt_count: u32,
}

/// A fetched activity with its lock; `item` is `WorkItem` JSON.
#[napi(object)]
pub struct WireFetchedWorkItem {
    pub item: String,
    pub lock_token: String,
    pub attempt_count: u32,
}

/// An instance's custom status and its version.
#[napi(object, use_nullable = true)]
pub struct WireCustomStatus {
    pub custom_status: Option<String>,
    pub version: i64,
}

/// duroxide's `SystemStats`.
#[napi(object)]
pub struct WireSystemStats {
    pub history_event_count: i64,
    pub history_size_bytes: i64,
    pub queue_pending_count: i64,
    pub kv_user_key_count: i64,
    pub kv_total_value_bytes: i64,
}

/// duroxide's `InstanceInfo`.
#[napi(object, use_nullable = true)]
pub struct WireInstanceInfo {
    pub instance_id: String,
    pub orchestration_name: String,
    pub orchestration_version: String,
    pub current_execution_id: i64,
    pub status: String,
    pub output: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    pub parent_instance_id: Option<String>,
}

/// duroxide's `ExecutionInfo`.
#[napi(object, use_nullable = true)]
pub struct WireExecutionInfo {
    pub execution_id: i64,
    pub status: String,
    pub output: Option<String>,
    pub started_at: i64,
    pub completed_at: Option<i64>,
    pub event_count: i64,
}

/// duroxide's `SystemMetrics`.
#[napi(object)]
pub struct WireSystemMetrics {
    pub total_instances: i64,
    pub total_executions: i64,
    pub running_instances: i64,
    pub completed_instances: i64,
    pub failed_instances: i64,
    pub total_events: i64,
}

/// duroxide's `QueueDepths`.
#[napi(object)]
pub struct WireQueueDepths {
    pub orchestrator_queue: i64,
    pub worker_queue: i64,
    pub timer_queue: i64,
}

/// duroxide's `InstanceTree`.
#[napi(object)]
pub struct WireInstanceTree {
    pub root_id: String,
    pub all_ids: Vec<String>,
}

/// duroxide's `InstanceFilter`; `null` means "no condition".
#[napi(object, use_nullable = true)]
pub struct WireInstanceFilter {
    pub instance_ids: Option<Vec<String>>,
    pub completed_before: Option<i64>,
    pub limit: Option<u32>,
}

/// duroxide's `PruneOptions`; `null` means "no condition".
#[napi(object, use_nullable = true)]
pub struct WirePruneOptions {
    pub keep_last: Option<u32>,
    pub completed_before: Option<i64>,
}

/// duroxide's `DeleteInstanceResult`.
#[napi(object)]
pub struct WireDeleteInstanceResult {
    pub instances_deleted: i64,
    pub executions_deleted: i64,
    pub events_deleted: i64,
    pub queue_messages_deleted: i64,
}

/// duroxide's `PruneResult`.
#[napi(object)]
pub struct WirePruneResult {
    pub instances_processed: i64,
    pub executions_deleted: i64,
    pub events_deleted: i64,
}
