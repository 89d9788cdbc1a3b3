//! `ProviderAdmin` for `JsProvider`, forwarding to the provider's `admin` object. duroxide only
//! reaches these methods through `as_management_capability`, which answers `None` when the
//! JavaScript provider has no admin object.

use duroxide::providers::{
    DeleteInstanceResult, ExecutionInfo, InstanceFilter, InstanceInfo, InstanceTree, ProviderAdmin, ProviderError,
    PruneOptions, PruneResult, QueueDepths, SystemMetrics,
};
use duroxide::Event;

use super::conversions::{events_from_json, u64_from_js, u64_to_js, usize_from_js};
use super::JsProvider;
use crate::wire::admin_calls::{
    DeleteInstanceArgs, DeleteInstancesAtomicArgs, PruneExecutionsArgs, PruneExecutionsBulkArgs, WireProviderAdmin,
};
use crate::wire::js_function::call_js;
use crate::wire::provider_calls::ExecutionRef;
use crate::wire::provider_objects::{WireDeleteInstanceResult, WireInstanceFilter, WirePruneOptions, WirePruneResult};

impl JsProvider {
    fn admin(&self, operation: &str) -> Result<&WireProviderAdmin, ProviderError> {
        self.wire
            .admin
            .as_ref()
            .ok_or_else(|| ProviderError::permanent(operation, "the JavaScript provider has no management interface"))
    }
}

fn filter_to_wire(filter: InstanceFilter) -> WireInstanceFilter {
    WireInstanceFilter {
        instance_ids: filter.instance_ids,
        completed_before: filter.completed_before.map(u64_to_js),
        limit: filter.limit,
    }
}

fn prune_options_to_wire(options: PruneOptions) -> WirePruneOptions {
    WirePruneOptions {
        keep_last: options.keep_last,
        completed_before: options.completed_before.map(u64_to_js),
    }
}

fn delete_result_from_wire(
    operation: &str,
    result: WireDeleteInstanceResult,
) -> Result<DeleteInstanceResult, ProviderError> {
    Ok(DeleteInstanceResult {
        instances_deleted: u64_from_js(operation, "instance count", result.instances_deleted)?,
        executions_deleted: u64_from_js(operation, "execution count", result.executions_deleted)?,
        events_deleted: u64_from_js(operation, "event count", result.events_deleted)?,
        queue_messages_deleted: u64_from_js(operation, "message count", result.queue_messages_deleted)?,
    })
}

fn prune_result_from_wire(operation: &str, result: WirePruneResult) -> Result<PruneResult, ProviderError> {
    Ok(PruneResult {
        instances_processed: u64_from_js(operation, "instance count", result.instances_processed)?,
        executions_deleted: u64_from_js(operation, "execution count", result.executions_deleted)?,
        events_deleted: u64_from_js(operation, "event count", result.events_deleted)?,
    })
}

#[async_trait::async_trait]
impl ProviderAdmin for JsProvider {
    async fn list_instances(&self) -> Result<Vec<String>, ProviderError> {
        const OP: &str = "list_instances";
        call_js(&self.admin(OP)?.list_instances, OP, ()).await
    }

    async fn list_instances_by_status(&self, status: &str) -> Result<Vec<String>, ProviderError> {
        const OP: &str = "list_instances_by_status";
        call_js(&self.admin(OP)?.list_instances_by_status, OP, status.to_string()).await
    }

    async fn list_executions(&self, instance: &str) -> Result<Vec<u64>, ProviderError> {
        const OP: &str = "list_executions";
        let ids = call_js(&self.admin(OP)?.list_executions, OP, instance.to_string()).await?;
        ids.into_iter().map(|id| u64_from_js(OP, "execution id", id)).collect()
    }

    async fn read_history_with_execution_id(
        &self,
        instance: &str,
        execution_id: u64,
    ) -> Result<Vec<Event>, ProviderError> {
        const OP: &str = "read_history_with_execution_id";
        let args = ExecutionRef {
            instance: instance.to_string(),
            execution_id: u64_to_js(execution_id),
        };
        let events = call_js(&self.admin(OP)?.read_history_with_execution_id, OP, args).await?;
        events_from_json(OP, &events)
    }

    async fn read_history(&self, instance: &str) -> Result<Vec<Event>, ProviderError> {
        const OP: &str = "read_history";
        let events = call_js(&self.admin(OP)?.read_history, OP, instance.to_string()).await?;
        events_from_json(OP, &events)
    }

    async fn latest_execution_id(&self, instance: &str) -> Result<u64, ProviderError> {
        const OP: &str = "latest_execution_id";
        let id = call_js(&self.admin(OP)?.latest_execution_id, OP, instance.to_string()).await?;
        u64_from_js(OP, "execution id", id)
    }

    async fn get_instance_info(&self, instance: &str) -> Result<InstanceInfo, ProviderError> {
        const OP: &str = "get_instance_info";
        let info = call_js(&self.admin(OP)?.get_instance_info, OP, instance.to_string()).await?;
        Ok(InstanceInfo {
            instance_id: info.instance_id,
            orchestration_name: info.orchestration_name,
            orchestration_version: info.orchestration_version,
            current_execution_id: u64_from_js(OP, "execution id", info.current_execution_id)?,
            status: info.status,
            output: info.output,
            created_at: u64_from_js(OP, "creation time", info.created_at)?,
            updated_at: u64_from_js(OP, "update time", info.updated_at)?,
            parent_instance_id: info.parent_instance_id,
        })
    }

    async fn get_execution_info(&self, instance: &str, execution_id: u64) -> Result<ExecutionInfo, ProviderError> {
        const OP: &str = "get_execution_info";
        let args = ExecutionRef {
            instance: instance.to_string(),
            execution_id: u64_to_js(execution_id),
        };
        let info = call_js(&self.admin(OP)?.get_execution_info, OP, args).await?;
        Ok(ExecutionInfo {
            execution_id: u64_from_js(OP, "execution id", info.execution_id)?,
            status: info.status,
            output: info.output,
            started_at: u64_from_js(OP, "start time", info.started_at)?,
            completed_at: info
                .completed_at
                .map(|at| u64_from_js(OP, "completion time", at))
                .transpose()?,
            event_count: usize_from_js(OP, "event count", info.event_count)?,
        })
    }

    async fn get_system_metrics(&self) -> Result<SystemMetrics, ProviderError> {
        const OP: &str = "get_system_metrics";
        let metrics = call_js(&self.admin(OP)?.get_system_metrics, OP, ()).await?;
        Ok(SystemMetrics {
            total_instances: u64_from_js(OP, "instance count", metrics.total_instances)?,
            total_executions: u64_from_js(OP, "execution count", metrics.total_executions)?,
            running_instances: u64_from_js(OP, "running count", metrics.running_instances)?,
            completed_instances: u64_from_js(OP, "completed count", metrics.completed_instances)?,
            failed_instances: u64_from_js(OP, "failed count", metrics.failed_instances)?,
            total_events: u64_from_js(OP, "event count", metrics.total_events)?,
        })
    }

    async fn get_queue_depths(&self) -> Result<QueueDepths, ProviderError> {
        const OP: &str = "get_queue_depths";
        let depths = call_js(&self.admin(OP)?.get_queue_depths, OP, ()).await?;
        Ok(QueueDepths {
            orchestrator_queue: usize_from_js(OP, "orchestrator queue depth", depths.orchestrator_queue)?,
            worker_queue: usize_from_js(OP, "worker queue depth", depths.worker_queue)?,
            timer_queue: usize_from_js(OP, "timer queue depth", depths.timer_queue)?,
        })
    }

    async fn list_children(&self, instance_id: &str) -> Result<Vec<String>, ProviderError> {
        const OP: &str = "list_children";
        call_js(&self.admin(OP)?.list_children, OP, instance_id.to_string()).await
    }

    async fn get_parent_id(&self, instance_id: &str) -> Result<Option<String>, ProviderError> {
        const OP: &str = "get_parent_id";
        call_js(&self.admin(OP)?.get_parent_id, OP, instance_id.to_string()).await
    }

    async fn delete_instances_atomic(
        &self,
        ids: &[String],
        force: bool,
    ) -> Result<DeleteInstanceResult, ProviderError> {
        const OP: &str = "delete_instances_atomic";
        let args = DeleteInstancesAtomicArgs {
            ids: ids.to_vec(),
            force,
        };
        delete_result_from_wire(OP, call_js(&self.admin(OP)?.delete_instances_atomic, OP, args).await?)
    }

    async fn get_instance_tree(&self, instance_id: &str) -> Result<InstanceTree, ProviderError> {
        const OP: &str = "get_instance_tree";
        let tree = call_js(&self.admin(OP)?.get_instance_tree, OP, instance_id.to_string()).await?;
        Ok(InstanceTree {
            root_id: tree.root_id,
            all_ids: tree.all_ids,
        })
    }

    async fn delete_instance(&self, instance_id: &str, force: bool) -> Result<DeleteInstanceResult, ProviderError> {
        const OP: &str = "delete_instance";
        let args = DeleteInstanceArgs {
            instance_id: instance_id.to_string(),
            force,
        };
        delete_result_from_wire(OP, call_js(&self.admin(OP)?.delete_instance, OP, args).await?)
    }

    async fn delete_instance_bulk(&self, filter: InstanceFilter) -> Result<DeleteInstanceResult, ProviderError> {
        const OP: &str = "delete_instance_bulk";
        let result = call_js(&self.admin(OP)?.delete_instance_bulk, OP, filter_to_wire(filter)).await?;
        delete_result_from_wire(OP, result)
    }

    async fn prune_executions(&self, instance_id: &str, options: PruneOptions) -> Result<PruneResult, ProviderError> {
        const OP: &str = "prune_executions";
        let args = PruneExecutionsArgs {
            instance_id: instance_id.to_string(),
            options: prune_options_to_wire(options),
        };
        prune_result_from_wire(OP, call_js(&self.admin(OP)?.prune_executions, OP, args).await?)
    }

    async fn prune_executions_bulk(
        &self,
        filter: InstanceFilter,
        options: PruneOptions,
    ) -> Result<PruneResult, ProviderError> {
        const OP: &str = "prune_executions_bulk";
        let args = PruneExecutionsBulkArgs {
            filter: filter_to_wire(filter),
            options: prune_options_to_wire(options),
        };
        prune_result_from_wire(OP, call_js(&self.admin(OP)?.prune_executions_bulk, OP, args).await?)
    }
}
