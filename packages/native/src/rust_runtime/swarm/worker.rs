//! `startRustSwarmWorker`: a Rust duroxide runtime serving the swarm session workload on a
//! JavaScript provider, which JavaScript starts, watches and stops.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use duroxide::runtime::observability::MetricsSnapshot;
use duroxide::runtime::{LogFormat, ObservabilityConfig, Runtime, RuntimeOptions};
use duroxide::OrchestrationRegistry;
use napi_derive::napi;

use super::activities::{activity_registry, WorkerObserver};
use super::digest::{digest_orchestration, DIGEST_ORCHESTRATION};
use super::session::{session_orchestration, SESSION_ORCHESTRATION};
use crate::errors::js_error;
use crate::js_provider::{u64_to_js, JsProvider};
use crate::wire::provider_calls::WireProvider;

/// The runtime settings of a swarm worker (the swarm's `WorkerRuntimeConfig`, durations in ms).
#[napi(object)]
pub struct RustSwarmWorkerOptions {
    /// Stable across restarts: the session owner id.
    pub worker_node_id: String,
    pub orchestration_concurrency: u32,
    pub worker_concurrency: u32,
    pub dispatcher_poll_interval_ms: u32,
    pub orchestrator_lock_timeout_ms: u32,
    pub worker_lock_timeout_ms: u32,
    pub session_lock_timeout_ms: u32,
    pub session_idle_timeout_ms: u32,
    pub max_sessions_per_runtime: u32,
}

/// What a swarm worker has done so far: its own counts, then duroxide's runtime counters.
#[napi(object)]
pub struct RustSwarmWorkerStats {
    pub turns_in_flight: i64,
    pub orchestration_turns: i64,
    /// Activities that returned a result (duroxide's own counter counts each twice).
    pub activities_succeeded: i64,
    pub orch_starts: i64,
    pub orch_completions: i64,
    pub orch_failures: i64,
    pub orch_application_errors: i64,
    pub orch_infrastructure_errors: i64,
    pub orch_configuration_errors: i64,
    pub orch_poison: i64,
    pub orch_continue_as_new: i64,
    pub orch_dispatcher_items_fetched: i64,
    pub activity_app_errors: i64,
    pub activity_infra_errors: i64,
    pub activity_poison: i64,
    pub activity_config_errors: i64,
    pub worker_dispatcher_items_fetched: i64,
    pub suborchestration_calls: i64,
    pub provider_errors: i64,
}

fn ms(value: u32) -> Duration {
    Duration::from_millis(value.into())
}

fn runtime_options(options: &RustSwarmWorkerOptions) -> RuntimeOptions {
    RuntimeOptions {
        dispatcher_min_poll_interval: ms(options.dispatcher_poll_interval_ms),
        // Short, so a shutdown does not wait long on a fetch.
        dispatcher_long_poll_timeout: Duration::from_millis(500),
        orchestration_concurrency: options.orchestration_concurrency as usize,
        worker_concurrency: options.worker_concurrency as usize,
        orchestrator_lock_timeout: ms(options.orchestrator_lock_timeout_ms),
        worker_lock_timeout: ms(options.worker_lock_timeout_ms),
        session_lock_timeout: ms(options.session_lock_timeout_ms),
        session_idle_timeout: ms(options.session_idle_timeout_ms),
        max_sessions_per_runtime: options.max_sessions_per_runtime as usize,
        worker_node_id: Some(options.worker_node_id.clone()),
        // JSON lines: the worker's log is a file, where the other formats' colours are noise.
        observability: ObservabilityConfig {
            log_format: LogFormat::Json,
            log_level: "warn".to_string(),
            ..ObservabilityConfig::default()
        },
        ..RuntimeOptions::default()
    }
}

/// A running Rust runtime serving `SwarmSession` and its activities. Stop it with `stop()`.
#[napi]
pub struct RustSwarmWorker {
    runtime: tokio::sync::Mutex<Option<Arc<Runtime>>>,
    observer: Arc<WorkerObserver>,
    /// The runtime's counters as they stood once it had stopped.
    final_metrics: Mutex<MetricsSnapshot>,
}

#[napi]
impl RustSwarmWorker {
    /// Turns in flight, orchestration turns, and the runtime's counters (their final values
    /// after `stop()`).
    #[napi]
    pub async fn stats(&self) -> napi::Result<RustSwarmWorkerStats> {
        let metrics = match self.runtime.lock().await.as_ref() {
            Some(runtime) => runtime.metrics_snapshot().unwrap_or_default(),
            None => self
                .final_metrics
                .lock()
                .map_err(|error| js_error(error.to_string()))?
                .clone(),
        };
        let count = |value: u64| u64_to_js(value);
        Ok(RustSwarmWorkerStats {
            turns_in_flight: self.observer.in_flight.load(Ordering::Relaxed),
            orchestration_turns: count(self.observer.orchestration_turns.load(Ordering::Relaxed)),
            activities_succeeded: count(self.observer.activities_succeeded.load(Ordering::Relaxed)),
            orch_starts: count(metrics.orch_starts),
            orch_completions: count(metrics.orch_completions),
            orch_failures: count(metrics.orch_failures),
            orch_application_errors: count(metrics.orch_application_errors),
            orch_infrastructure_errors: count(metrics.orch_infrastructure_errors),
            orch_configuration_errors: count(metrics.orch_configuration_errors),
            orch_poison: count(metrics.orch_poison),
            orch_continue_as_new: count(metrics.orch_continue_as_new),
            orch_dispatcher_items_fetched: count(metrics.orch_dispatcher_items_fetched),
            activity_app_errors: count(metrics.activity_app_errors),
            activity_infra_errors: count(metrics.activity_infra_errors),
            activity_poison: count(metrics.activity_poison),
            activity_config_errors: count(metrics.activity_config_errors),
            worker_dispatcher_items_fetched: count(metrics.worker_dispatcher_items_fetched),
            suborchestration_calls: count(metrics.suborchestration_calls),
            provider_errors: count(metrics.provider_errors),
        })
    }

    /// Sessions whose last turn before continue-as-new started since the last call.
    #[napi]
    pub fn take_continue_as_new_soon(&self) -> napi::Result<Vec<String>> {
        let mut sessions = self
            .observer
            .continue_as_new_soon
            .lock()
            .map_err(|error| js_error(error.to_string()))?;
        Ok(std::mem::take(&mut *sessions))
    }

    /// Shuts the runtime down gracefully, waiting up to `timeoutMs` for work in flight; later
    /// calls do nothing.
    #[napi]
    pub async fn stop(&self, timeout_ms: u32) {
        if let Some(runtime) = self.runtime.lock().await.take() {
            Arc::clone(&runtime).shutdown(Some(timeout_ms.into())).await;
            if let (Some(metrics), Ok(mut kept)) = (runtime.metrics_snapshot(), self.final_metrics.lock()) {
                *kept = metrics;
            }
        }
    }
}

/// Starts a Rust runtime serving the swarm session workload over a duro provider (through the
/// bridge), so every fetch and acknowledgement goes through that provider.
#[napi]
pub async fn start_rust_swarm_worker(
    provider: WireProvider,
    options: RustSwarmWorkerOptions,
) -> napi::Result<RustSwarmWorker> {
    let observer = Arc::new(WorkerObserver::default());
    let turns = Arc::clone(&observer);
    let orchestrations = OrchestrationRegistry::builder()
        .register(SESSION_ORCHESTRATION, move |ctx, input: String| {
            turns.orchestration_turns.fetch_add(1, Ordering::Relaxed);
            session_orchestration(ctx, input)
        })
        .register(DIGEST_ORCHESTRATION, digest_orchestration)
        .build();
    let runtime = Runtime::start_with_options(
        Arc::new(JsProvider::new(provider)),
        activity_registry(Arc::clone(&observer)),
        orchestrations,
        runtime_options(&options),
    )
    .await;
    if runtime.metrics_snapshot().is_none() {
        return Err(js_error("the Rust runtime started without its metrics"));
    }
    Ok(RustSwarmWorker {
        runtime: tokio::sync::Mutex::new(Some(runtime)),
        observer,
        final_metrics: Mutex::default(),
    })
}
