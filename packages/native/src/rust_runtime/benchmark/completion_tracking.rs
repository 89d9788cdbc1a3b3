//! A duroxide `Provider` that passes every call to another one and tells the benchmark the
//! moment an instance's final turn commits, so completions are seen without polling the store.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use duroxide::providers::{
    DispatcherCapabilityFilter, ExecutionMetadata, OrchestrationItem, Provider, ProviderAdmin, ProviderError,
    ScheduledActivityIdentifier, SessionFetchConfig, TagFilter, WorkItem,
};
use duroxide::{Event, SystemStats};
use napi_derive::napi;
use tokio::sync::mpsc;

/// An instance whose final turn committed.
#[napi(object)]
pub struct RustBenchCompletion {
    pub instance: String,
    /// When the final turn's ack returned, ms since the Unix epoch (the wall clock every process
    /// of the bench shares).
    pub finished_at_ms: f64,
    /// The output of a failed instance; absent when it completed.
    pub failure: Option<String>,
}

pub struct CompletionTracking {
    inner: Arc<dyn Provider>,
    completions: mpsc::UnboundedSender<RustBenchCompletion>,
    activity_acks: AtomicU32,
}

impl CompletionTracking {
    /// The tracking provider, and the receiving end of its completions.
    pub fn new(inner: Arc<dyn Provider>) -> (Self, mpsc::UnboundedReceiver<RustBenchCompletion>) {
        let (completions, receiver) = mpsc::unbounded_channel();
        let tracking = Self {
            inner,
            completions,
            activity_acks: AtomicU32::new(0),
        };
        (tracking, receiver)
    }

    /// Activities acknowledged so far.
    pub fn activity_acks(&self) -> u32 {
        self.activity_acks.load(Ordering::Relaxed)
    }

    fn ended(&self, instance: String, failure: Option<String>) {
        let finished_at_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0.0, |since| since.as_secs_f64() * 1000.0);
        // The receiver is gone only once the worker stopped; nobody is left to tell.
        let _ = self.completions.send(RustBenchCompletion {
            instance,
            finished_at_ms,
            failure,
        });
    }
}

#[async_trait::async_trait]
impl Provider for CompletionTracking {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn version(&self) -> &str {
        self.inner.version()
    }

    async fn fetch_orchestration_item(
        &self,
        lock_timeout: Duration,
        poll_timeout: Duration,
        filter: Option<&DispatcherCapabilityFilter>,
    ) -> Result<Option<(OrchestrationItem, String, u32)>, ProviderError> {
        self.inner
            .fetch_orchestration_item(lock_timeout, poll_timeout, filter)
            .await
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
        let instance = history_delta.first().map(|event| event.instance_id.clone());
        let end = match metadata.status.as_deref() {
            Some("Completed") => Some(None),
            Some("Failed") => Some(Some(metadata.output.clone().unwrap_or_default())),
            _ => None,
        };
        self.inner
            .ack_orchestration_item(
                lock_token,
                execution_id,
                history_delta,
                worker_items,
                orchestrator_items,
                metadata,
                cancelled_activities,
            )
            .await?;
        if let (Some(instance), Some(failure)) = (instance, end) {
            self.ended(instance, failure);
        }
        Ok(())
    }

    async fn abandon_orchestration_item(
        &self,
        lock_token: &str,
        delay: Option<Duration>,
        ignore_attempt: bool,
    ) -> Result<(), ProviderError> {
        self.inner
            .abandon_orchestration_item(lock_token, delay, ignore_attempt)
            .await
    }

    async fn read(&self, instance: &str) -> Result<Vec<Event>, ProviderError> {
        self.inner.read(instance).await
    }

    async fn read_with_execution(&self, instance: &str, execution_id: u64) -> Result<Vec<Event>, ProviderError> {
        self.inner.read_with_execution(instance, execution_id).await
    }

    async fn append_with_execution(
        &self,
        instance: &str,
        execution_id: u64,
        new_events: Vec<Event>,
    ) -> Result<(), ProviderError> {
        self.inner
            .append_with_execution(instance, execution_id, new_events)
            .await
    }

    async fn enqueue_for_worker(&self, item: WorkItem) -> Result<(), ProviderError> {
        self.inner.enqueue_for_worker(item).await
    }

    async fn fetch_work_item(
        &self,
        lock_timeout: Duration,
        poll_timeout: Duration,
        session: Option<&SessionFetchConfig>,
        tag_filter: &TagFilter,
    ) -> Result<Option<(WorkItem, String, u32)>, ProviderError> {
        self.inner
            .fetch_work_item(lock_timeout, poll_timeout, session, tag_filter)
            .await
    }

    async fn ack_work_item(&self, token: &str, completion: Option<WorkItem>) -> Result<(), ProviderError> {
        self.inner.ack_work_item(token, completion).await?;
        self.activity_acks.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    async fn renew_work_item_lock(&self, token: &str, extend_for: Duration) -> Result<(), ProviderError> {
        self.inner.renew_work_item_lock(token, extend_for).await
    }

    async fn renew_session_lock(
        &self,
        owner_ids: &[&str],
        extend_for: Duration,
        idle_timeout: Duration,
    ) -> Result<usize, ProviderError> {
        self.inner.renew_session_lock(owner_ids, extend_for, idle_timeout).await
    }

    async fn cleanup_orphaned_sessions(&self, idle_timeout: Duration) -> Result<usize, ProviderError> {
        self.inner.cleanup_orphaned_sessions(idle_timeout).await
    }

    async fn abandon_work_item(
        &self,
        token: &str,
        delay: Option<Duration>,
        ignore_attempt: bool,
    ) -> Result<(), ProviderError> {
        self.inner.abandon_work_item(token, delay, ignore_attempt).await
    }

    async fn renew_orchestration_item_lock(&self, token: &str, extend_for: Duration) -> Result<(), ProviderError> {
        self.inner.renew_orchestration_item_lock(token, extend_for).await
    }

    async fn enqueue_for_orchestrator(&self, item: WorkItem, delay: Option<Duration>) -> Result<(), ProviderError> {
        self.inner.enqueue_for_orchestrator(item, delay).await
    }

    fn as_management_capability(&self) -> Option<&dyn ProviderAdmin> {
        self.inner.as_management_capability()
    }

    async fn get_custom_status(
        &self,
        instance: &str,
        last_seen_version: u64,
    ) -> Result<Option<(Option<String>, u64)>, ProviderError> {
        self.inner.get_custom_status(instance, last_seen_version).await
    }

    async fn get_kv_value(&self, instance: &str, key: &str) -> Result<Option<String>, ProviderError> {
        self.inner.get_kv_value(instance, key).await
    }

    async fn get_kv_all_values(&self, instance: &str) -> Result<HashMap<String, String>, ProviderError> {
        self.inner.get_kv_all_values(instance).await
    }

    async fn get_instance_stats(&self, instance: &str) -> Result<Option<SystemStats>, ProviderError> {
        self.inner.get_instance_stats(instance).await
    }
}
