//! The JavaScript provider object the Rust side calls: one async function per method of
//! duroxide's `Provider` trait, with its arguments as one object. A method rejects with a duro
//! `ProviderError` (see `WireProviderError`) when the operation fails.

use std::collections::HashMap;

use napi::bindgen_prelude::PromiseRaw;
use napi::threadsafe_function::ThreadsafeFunction;
use napi::Status;
use napi_derive::napi;

use super::admin_calls::WireProviderAdmin;
use super::provider_objects::{
    WireCapabilityFilter, WireCustomStatus, WireExecutionMetadata, WireFetchedOrchestrationItem, WireFetchedWorkItem,
    WireScheduledActivityIdentifier, WireSessionFetchConfig, WireSystemStats, WireTagFilter,
};

#[napi(object, use_nullable = true)]
pub struct FetchOrchestrationItemArgs {
    pub lock_timeout_ms: i64,
    pub poll_timeout_ms: i64,
    pub filter: Option<WireCapabilityFilter>,
}

#[napi(object)]
pub struct AckOrchestrationItemArgs {
    pub lock_token: String,
    pub execution_id: i64,
    /// `Event` JSON strings.
    pub history_delta: Vec<String>,
    /// `WorkItem` JSON strings.
    pub worker_items: Vec<String>,
    /// `WorkItem` JSON strings.
    pub orchestrator_items: Vec<String>,
    pub metadata: WireExecutionMetadata,
    pub cancelled_activities: Vec<WireScheduledActivityIdentifier>,
}

#[napi(object, use_nullable = true)]
pub struct AbandonArgs {
    pub lock_token: String,
    pub delay_ms: Option<i64>,
    pub ignore_attempt: bool,
}

#[napi(object)]
pub struct RenewLockArgs {
    pub lock_token: String,
    pub extend_for_ms: i64,
}

#[napi(object)]
pub struct ExecutionRef {
    pub instance: String,
    pub execution_id: i64,
}

#[napi(object)]
pub struct AppendWithExecutionArgs {
    pub instance: String,
    pub execution_id: i64,
    /// `Event` JSON strings.
    pub new_events: Vec<String>,
}

#[napi(object, use_nullable = true)]
pub struct FetchWorkItemArgs {
    pub lock_timeout_ms: i64,
    pub poll_timeout_ms: i64,
    pub session: Option<WireSessionFetchConfig>,
    pub tag_filter: WireTagFilter,
}

#[napi(object, use_nullable = true)]
pub struct AckWorkItemArgs {
    pub lock_token: String,
    /// `WorkItem` JSON, or `null` to delete the activity without a completion.
    pub completion: Option<String>,
}

#[napi(object)]
pub struct RenewSessionLockArgs {
    pub owner_ids: Vec<String>,
    pub extend_for_ms: i64,
    pub idle_timeout_ms: i64,
}

#[napi(object, use_nullable = true)]
pub struct EnqueueForOrchestratorArgs {
    /// `WorkItem` JSON.
    pub item: String,
    pub delay_ms: Option<i64>,
}

#[napi(object)]
pub struct GetCustomStatusArgs {
    pub instance: String,
    pub last_seen_version: i64,
}

#[napi(object)]
pub struct GetKvValueArgs {
    pub instance: String,
    pub key: String,
}

/// A duro provider as the Rust side sees it. `@duro/native`'s `toWireProvider` builds one from
/// any `Provider`.
#[napi(object, object_to_js = false, use_nullable = true)]
pub struct WireProvider {
    pub name: String,
    pub version: String,
    pub fetch_orchestration_item: ThreadsafeFunction<
        FetchOrchestrationItemArgs,
        PromiseRaw<'static, Option<WireFetchedOrchestrationItem>>,
        FetchOrchestrationItemArgs,
        Status,
        false,
        true,
    >,
    pub ack_orchestration_item: ThreadsafeFunction<
        AckOrchestrationItemArgs,
        PromiseRaw<'static, ()>,
        AckOrchestrationItemArgs,
        Status,
        false,
        true,
    >,
    pub abandon_orchestration_item:
        ThreadsafeFunction<AbandonArgs, PromiseRaw<'static, ()>, AbandonArgs, Status, false, true>,
    pub renew_orchestration_item_lock:
        ThreadsafeFunction<RenewLockArgs, PromiseRaw<'static, ()>, RenewLockArgs, Status, false, true>,
    /// `item` is `WorkItem` JSON.
    pub enqueue_for_orchestrator: ThreadsafeFunction<
        EnqueueForOrchestratorArgs,
        PromiseRaw<'static, ()>,
        EnqueueForOrchestratorArgs,
        Status,
        false,
        true,
    >,
    /// Resolves with `Event` JSON strings of the latest execution.
    pub read: ThreadsafeFunction<String, PromiseRaw<'static, Vec<String>>, String, Status, false, true>,
    /// Resolves with `Event` JSON strings.
    pub read_with_execution:
        ThreadsafeFunction<ExecutionRef, PromiseRaw<'static, Vec<String>>, ExecutionRef, Status, false, true>,
    pub append_with_execution: ThreadsafeFunction<
        AppendWithExecutionArgs,
        PromiseRaw<'static, ()>,
        AppendWithExecutionArgs,
        Status,
        false,
        true,
    >,
    /// Takes `WorkItem` JSON.
    pub enqueue_for_worker: ThreadsafeFunction<String, PromiseRaw<'static, ()>, String, Status, false, true>,
    pub fetch_work_item: ThreadsafeFunction<
        FetchWorkItemArgs,
        PromiseRaw<'static, Option<WireFetchedWorkItem>>,
        FetchWorkItemArgs,
        Status,
        false,
        true,
    >,
    pub ack_work_item:
        ThreadsafeFunction<AckWorkItemArgs, PromiseRaw<'static, ()>, AckWorkItemArgs, Status, false, true>,
    pub renew_work_item_lock:
        ThreadsafeFunction<RenewLockArgs, PromiseRaw<'static, ()>, RenewLockArgs, Status, false, true>,
    pub abandon_work_item: ThreadsafeFunction<AbandonArgs, PromiseRaw<'static, ()>, AbandonArgs, Status, false, true>,
    pub renew_session_lock:
        ThreadsafeFunction<RenewSessionLockArgs, PromiseRaw<'static, u32>, RenewSessionLockArgs, Status, false, true>,
    /// Takes the idle timeout in milliseconds.
    pub cleanup_orphaned_sessions: ThreadsafeFunction<i64, PromiseRaw<'static, u32>, i64, Status, false, true>,
    pub get_custom_status: ThreadsafeFunction<
        GetCustomStatusArgs,
        PromiseRaw<'static, Option<WireCustomStatus>>,
        GetCustomStatusArgs,
        Status,
        false,
        true,
    >,
    pub get_kv_value:
        ThreadsafeFunction<GetKvValueArgs, PromiseRaw<'static, Option<String>>, GetKvValueArgs, Status, false, true>,
    pub get_kv_all_values:
        ThreadsafeFunction<String, PromiseRaw<'static, HashMap<String, String>>, String, Status, false, true>,
    pub get_instance_stats:
        ThreadsafeFunction<String, PromiseRaw<'static, Option<WireSystemStats>>, String, Status, false, true>,
    /// The management interface, or `null` when the provider has none.
    pub admin: Option<WireProviderAdmin>,
}
