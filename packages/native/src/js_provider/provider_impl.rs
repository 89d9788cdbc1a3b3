//! `Provider` for `JsProvider`: each method converts its arguments to the wire shapes, awaits
//! the JavaScript method and converts the result back.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use duroxide::providers::{
    DispatcherCapabilityFilter, ExecutionMetadata, KvEntry, OrchestrationItem, Provider, ProviderAdmin, ProviderError,
    ScheduledActivityIdentifier, SessionFetchConfig, TagFilter, WorkItem,
};
use duroxide::{Event, SystemStats};

use super::claims::{fetch_or_give_back, Queue};
use super::conversions::{
    activity_identifier_to_wire, capability_filter_to_wire, duration_ms, events_from_json, events_to_json,
    metadata_to_wire, session_to_wire, tag_filter_to_wire, u64_from_js, u64_to_js, work_item_from_json,
    work_item_to_json, work_items_from_json, work_items_to_json,
};
use super::JsProvider;
use crate::wire::js_function::call_js;
use crate::wire::provider_calls::{
    AbandonArgs, AckOrchestrationItemArgs, AckWorkItemArgs, AppendWithExecutionArgs, EnqueueForOrchestratorArgs,
    ExecutionRef, FetchOrchestrationItemArgs, FetchWorkItemArgs, GetCustomStatusArgs, GetKvValueArgs, RenewLockArgs,
    RenewSessionLockArgs,
};
use crate::wire::provider_objects::WireOrchestrationItem;

fn orchestration_item_from_wire(
    operation: &str,
    item: WireOrchestrationItem,
) -> Result<OrchestrationItem, ProviderError> {
    let kv_snapshot = item
        .kv_snapshot
        .into_iter()
        .map(|(key, entry)| {
            let last_updated_at_ms = u64_from_js(operation, "KV timestamp", entry.last_updated_at_ms)?;
            Ok((
                key,
                KvEntry {
                    value: entry.value,
                    last_updated_at_ms,
                },
            ))
        })
        .collect::<Result<HashMap<_, _>, ProviderError>>()?;
    Ok(OrchestrationItem {
        instance: item.instance,
        orchestration_name: item.orchestration_name,
        execution_id: u64_from_js(operation, "execution id", item.execution_id)?,
        version: item.version,
        history: events_from_json(operation, &item.history)?,
        messages: work_items_from_json(operation, &item.messages)?,
        history_error: item.history_error,
        kv_snapshot,
    })
}

#[async_trait::async_trait]
impl Provider for JsProvider {
    fn name(&self) -> &str {
        &self.wire.name
    }

    fn version(&self) -> &str {
        &self.wire.version
    }

    async fn fetch_orchestration_item(
        &self,
        lock_timeout: Duration,
        poll_timeout: Duration,
        filter: Option<&DispatcherCapabilityFilter>,
    ) -> Result<Option<(OrchestrationItem, String, u32)>, ProviderError> {
        const OP: &str = "fetch_orchestration_item";
        let args = FetchOrchestrationItemArgs {
            lock_timeout_ms: duration_ms(lock_timeout),
            poll_timeout_ms: duration_ms(poll_timeout),
            filter: filter.map(capability_filter_to_wire),
        };
        let wire = Arc::clone(&self.wire);
        let fetch = async move { call_js(&wire.fetch_orchestration_item, OP, args).await };
        let Some(fetched) = fetch_or_give_back(&self.wire, Queue::Orchestrator, OP, fetch).await? else {
            return Ok(None);
        };
        let item = orchestration_item_from_wire(OP, fetched.item)?;
        Ok(Some((item, fetched.lock_token, fetched.attempt_count)))
    }

    async fn ack_orchestration_item(
        &self,
        lock_token: &str,
        execution_id: u64,
        history_delta: Vec<Event>,
        worker_items: Vec<WorkItem>,
        orchestrator_items: Vec<WorkItem>,
        metadata: ExecutionMetadata,
        cancelled_activities: Vec<ScheduledActivityIdentifier>,
    ) -> Result<(), ProviderError> {
        const OP: &str = "ack_orchestration_item";
        let args = AckOrchestrationItemArgs {
            lock_token: lock_token.to_string(),
            execution_id: u64_to_js(execution_id),
            history_delta: events_to_json(OP, &history_delta)?,
            worker_items: work_items_to_json(OP, &worker_items)?,
            orchestrator_items: work_items_to_json(OP, &orchestrator_items)?,
            metadata: metadata_to_wire(metadata),
            cancelled_activities: cancelled_activities.iter().map(activity_identifier_to_wire).collect(),
        };
        call_js(&self.wire.ack_orchestration_item, OP, args).await
    }

    async fn abandon_orchestration_item(
        &self,
        lock_token: &str,
        delay: Option<Duration>,
        ignore_attempt: bool,
    ) -> Result<(), ProviderError> {
        let args = AbandonArgs {
            lock_token: lock_token.to_string(),
            delay_ms: delay.map(duration_ms),
            ignore_attempt,
        };
        call_js(
            &self.wire.abandon_orchestration_item,
            "abandon_orchestration_item",
            args,
        )
        .await
    }

    async fn read(&self, instance: &str) -> Result<Vec<Event>, ProviderError> {
        const OP: &str = "read";
        let events = call_js(&self.wire.read, OP, instance.to_string()).await?;
        events_from_json(OP, &events)
    }

    async fn read_with_execution(&self, instance: &str, execution_id: u64) -> Result<Vec<Event>, ProviderError> {
        const OP: &str = "read_with_execution";
        let args = ExecutionRef {
            instance: instance.to_string(),
            execution_id: u64_to_js(execution_id),
        };
        let events = call_js(&self.wire.read_with_execution, OP, args).await?;
        events_from_json(OP, &events)
    }

    async fn append_with_execution(
        &self,
        instance: &str,
        execution_id: u64,
        new_events: Vec<Event>,
    ) -> Result<(), ProviderError> {
        const OP: &str = "append_with_execution";
        let args = AppendWithExecutionArgs {
            instance: instance.to_string(),
            execution_id: u64_to_js(execution_id),
            new_events: events_to_json(OP, &new_events)?,
        };
        call_js(&self.wire.append_with_execution, OP, args).await
    }

    async fn enqueue_for_worker(&self, item: WorkItem) -> Result<(), ProviderError> {
        const OP: &str = "enqueue_for_worker";
        call_js(&self.wire.enqueue_for_worker, OP, work_item_to_json(OP, &item)?).await
    }

    async fn fetch_work_item(
        &self,
        lock_timeout: Duration,
        poll_timeout: Duration,
        session: Option<&SessionFetchConfig>,
        tag_filter: &TagFilter,
    ) -> Result<Option<(WorkItem, String, u32)>, ProviderError> {
        const OP: &str = "fetch_work_item";
        let args = FetchWorkItemArgs {
            lock_timeout_ms: duration_ms(lock_timeout),
            poll_timeout_ms: duration_ms(poll_timeout),
            session: session.map(session_to_wire),
            tag_filter: tag_filter_to_wire(tag_filter),
        };
        let wire = Arc::clone(&self.wire);
        let fetch = async move { call_js(&wire.fetch_work_item, OP, args).await };
        let Some(fetched) = fetch_or_give_back(&self.wire, Queue::Worker, OP, fetch).await? else {
            return Ok(None);
        };
        let item = work_item_from_json(OP, &fetched.item)?;
        Ok(Some((item, fetched.lock_token, fetched.attempt_count)))
    }

    async fn ack_work_item(&self, token: &str, completion: Option<WorkItem>) -> Result<(), ProviderError> {
        const OP: &str = "ack_work_item";
        let args = AckWorkItemArgs {
            lock_token: token.to_string(),
            completion: completion.map(|item| work_item_to_json(OP, &item)).transpose()?,
        };
        call_js(&self.wire.ack_work_item, OP, args).await
    }

    async fn renew_work_item_lock(&self, token: &str, extend_for: Duration) -> Result<(), ProviderError> {
        let args = RenewLockArgs {
            lock_token: token.to_string(),
            extend_for_ms: duration_ms(extend_for),
        };
        call_js(&self.wire.renew_work_item_lock, "renew_work_item_lock", args).await
    }

    async fn renew_session_lock(
        &self,
        owner_ids: &[&str],
        extend_for: Duration,
        idle_timeout: Duration,
    ) -> Result<usize, ProviderError> {
        let args = RenewSessionLockArgs {
            owner_ids: owner_ids.iter().map(|id| id.to_string()).collect(),
            extend_for_ms: duration_ms(extend_for),
            idle_timeout_ms: duration_ms(idle_timeout),
        };
        let renewed = call_js(&self.wire.renew_session_lock, "renew_session_lock", args).await?;
        Ok(renewed as usize)
    }

    async fn cleanup_orphaned_sessions(&self, idle_timeout: Duration) -> Result<usize, ProviderError> {
        let removed = call_js(
            &self.wire.cleanup_orphaned_sessions,
            "cleanup_orphaned_sessions",
            duration_ms(idle_timeout),
        )
        .await?;
        Ok(removed as usize)
    }

    async fn abandon_work_item(
        &self,
        token: &str,
        delay: Option<Duration>,
        ignore_attempt: bool,
    ) -> Result<(), ProviderError> {
        let args = AbandonArgs {
            lock_token: token.to_string(),
            delay_ms: delay.map(duration_ms),
            ignore_attempt,
        };
        call_js(&self.wire.abandon_work_item, "abandon_work_item", args).await
    }

    async fn renew_orchestration_item_lock(&self, token: &str, extend_for: Duration) -> Result<(), ProviderError> {
        let args = RenewLockArgs {
            lock_token: token.to_string(),
            extend_for_ms: duration_ms(extend_for),
        };
        call_js(
            &self.wire.renew_orchestration_item_lock,
            "renew_orchestration_item_lock",
            args,
        )
        .await
    }

    async fn enqueue_for_orchestrator(&self, item: WorkItem, delay: Option<Duration>) -> Result<(), ProviderError> {
        const OP: &str = "enqueue_for_orchestrator";
        let args = EnqueueForOrchestratorArgs {
            item: work_item_to_json(OP, &item)?,
            delay_ms: delay.map(duration_ms),
        };
        call_js(&self.wire.enqueue_for_orchestrator, OP, args).await
    }

    fn as_management_capability(&self) -> Option<&dyn ProviderAdmin> {
        self.wire.admin.as_ref().map(|_| self as &dyn ProviderAdmin)
    }

    async fn get_custom_status(
        &self,
        instance: &str,
        last_seen_version: u64,
    ) -> Result<Option<(Option<String>, u64)>, ProviderError> {
        const OP: &str = "get_custom_status";
        let args = GetCustomStatusArgs {
            instance: instance.to_string(),
            last_seen_version: u64_to_js(last_seen_version),
        };
        let Some(status) = call_js(&self.wire.get_custom_status, OP, args).await? else {
            return Ok(None);
        };
        Ok(Some((
            status.custom_status,
            u64_from_js(OP, "custom status version", status.version)?,
        )))
    }

    async fn get_kv_value(&self, instance: &str, key: &str) -> Result<Option<String>, ProviderError> {
        let args = GetKvValueArgs {
            instance: instance.to_string(),
            key: key.to_string(),
        };
        call_js(&self.wire.get_kv_value, "get_kv_value", args).await
    }

    async fn get_kv_all_values(&self, instance: &str) -> Result<HashMap<String, String>, ProviderError> {
        call_js(&self.wire.get_kv_all_values, "get_kv_all_values", instance.to_string()).await
    }

    async fn get_instance_stats(&self, instance: &str) -> Result<Option<SystemStats>, ProviderError> {
        const OP: &str = "get_instance_stats";
        let Some(stats) = call_js(&self.wire.get_instance_stats, OP, instance.to_string()).await? else {
            return Ok(None);
        };
        Ok(Some(SystemStats {
            history_event_count: u64_from_js(OP, "history event count", stats.history_event_count)?,
            history_size_bytes: u64_from_js(OP, "history size", stats.history_size_bytes)?,
            queue_pending_count: u64_from_js(OP, "queue pending count", stats.queue_pending_count)?,
            kv_user_key_count: u64_from_js(OP, "KV key count", stats.kv_user_key_count)?,
            kv_total_value_bytes: u64_from_js(OP, "KV size", stats.kv_total_value_bytes)?,
        }))
    }
}
