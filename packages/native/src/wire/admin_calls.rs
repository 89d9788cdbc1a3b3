//! The JavaScript management object the Rust side calls: one async function per method of
//! duroxide's `ProviderAdmin` trait (the composite ones included, so the JavaScript
//! implementation of each is what gets checked).

use napi::bindgen_prelude::PromiseRaw;
use napi::threadsafe_function::ThreadsafeFunction;
use napi::Status;
use napi_derive::napi;

use super::provider_calls::ExecutionRef;
use super::provider_objects::{
    WireDeleteInstanceResult, WireExecutionInfo, WireInstanceFilter, WireInstanceInfo, WireInstanceTree,
    WirePruneOptions, WirePruneResult, WireQueueDepths, WireSystemMetrics,
};

#[napi(object)]
pub struct DeleteInstancesAtomicArgs {
    pub ids: Vec<String>,
    pub force: bool,
}

#[napi(object)]
pub struct DeleteInstanceArgs {
    pub instance_id: String,
    pub force: bool,
}

#[napi(object)]
pub struct PruneExecutionsArgs {
    pub instance_id: String,
    pub options: WirePruneOptions,
}

#[napi(object)]
pub struct PruneExecutionsBulkArgs {
    pub filter: WireInstanceFilter,
    pub options: WirePruneOptions,
}

/// A duro `ProviderAdmin` as the Rust side sees it.
#[napi(object, object_to_js = false)]
pub struct WireProviderAdmin {
    pub list_instances: ThreadsafeFunction<(), PromiseRaw<'static, Vec<String>>, (), Status, false, true>,
    pub list_instances_by_status:
        ThreadsafeFunction<String, PromiseRaw<'static, Vec<String>>, String, Status, false, true>,
    pub list_executions: ThreadsafeFunction<String, PromiseRaw<'static, Vec<i64>>, String, Status, false, true>,
    /// Resolves with `Event` JSON strings.
    pub read_history_with_execution_id:
        ThreadsafeFunction<ExecutionRef, PromiseRaw<'static, Vec<String>>, ExecutionRef, Status, false, true>,
    /// Resolves with `Event` JSON strings of the latest execution.
    pub read_history: ThreadsafeFunction<String, PromiseRaw<'static, Vec<String>>, String, Status, false, true>,
    pub latest_execution_id: ThreadsafeFunction<String, PromiseRaw<'static, i64>, String, Status, false, true>,
    pub get_instance_info:
        ThreadsafeFunction<String, PromiseRaw<'static, WireInstanceInfo>, String, Status, false, true>,
    pub get_execution_info:
        ThreadsafeFunction<ExecutionRef, PromiseRaw<'static, WireExecutionInfo>, ExecutionRef, Status, false, true>,
    pub get_system_metrics: ThreadsafeFunction<(), PromiseRaw<'static, WireSystemMetrics>, (), Status, false, true>,
    pub get_queue_depths: ThreadsafeFunction<(), PromiseRaw<'static, WireQueueDepths>, (), Status, false, true>,
    pub list_children: ThreadsafeFunction<String, PromiseRaw<'static, Vec<String>>, String, Status, false, true>,
    pub get_parent_id: ThreadsafeFunction<String, PromiseRaw<'static, Option<String>>, String, Status, false, true>,
    pub delete_instances_atomic: ThreadsafeFunction<
        DeleteInstancesAtomicArgs,
        PromiseRaw<'static, WireDeleteInstanceResult>,
        DeleteInstancesAtomicArgs,
        Status,
        false,
        true,
    >,
    pub get_instance_tree:
        ThreadsafeFunction<String, PromiseRaw<'static, WireInstanceTree>, String, Status, false, true>,
    pub delete_instance: ThreadsafeFunction<
        DeleteInstanceArgs,
        PromiseRaw<'static, WireDeleteInstanceResult>,
        DeleteInstanceArgs,
        Status,
        false,
        true,
    >,
    pub delete_instance_bulk: ThreadsafeFunction<
        WireInstanceFilter,
        PromiseRaw<'static, WireDeleteInstanceResult>,
        WireInstanceFilter,
        Status,
        false,
        true,
    >,
    pub prune_executions: ThreadsafeFunction<
        PruneExecutionsArgs,
        PromiseRaw<'static, WirePruneResult>,
        PruneExecutionsArgs,
        Status,
        false,
        true,
    >,
    pub prune_executions_bulk: ThreadsafeFunction<
        PruneExecutionsBulkArgs,
        PromiseRaw<'static, WirePruneResult>,
        PruneExecutionsBulkArgs,
        Status,
        false,
        true,
    >,
}
