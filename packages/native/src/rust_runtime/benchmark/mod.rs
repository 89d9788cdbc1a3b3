//! The bench's workloads on the Rust duroxide runtime with duroxide-pg: instances started with a
//! fixed number in flight, each timed from its start to the commit of its final turn.

mod completion_tracking;
mod workloads;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use duroxide::providers::Provider;
use duroxide::runtime::{Runtime, RuntimeOptions};
use duroxide::Client;
use duroxide_pg::PostgresProvider;
use napi_derive::napi;
use tokio::task::JoinSet;

use crate::errors::js_error;
use completion_tracking::CompletionTracking;
use workloads::Workload;

/// What one benchmark run does.
#[napi(object)]
pub struct RustBenchmarkOptions {
    /// A workload name of the bench: hello, fan-out-5, sequential-5, timer-heavy,
    /// continue-as-new or queue-burst.
    pub workload: String,
    pub orchestration_concurrency: u32,
    pub worker_concurrency: u32,
    /// Instances started in all.
    pub instances: u32,
    /// Instances running at once.
    pub in_flight: u32,
    /// Put before each instance's number to form its id.
    pub instance_prefix: String,
    /// How long one instance may take before the run fails, ms.
    pub instance_timeout_ms: u32,
}

/// One instance: when it was started and when its final turn committed, ms since the run began.
#[napi(object)]
pub struct RustInstanceTiming {
    pub started_ms: f64,
    pub finished_ms: f64,
}

#[napi(object)]
pub struct RustBenchmarkResult {
    /// Every instance, in start order.
    pub timings: Vec<RustInstanceTiming>,
    /// Activities acknowledged during the run.
    pub activity_acks: u32,
}

struct Run {
    client: Client,
    tracking: Arc<CompletionTracking>,
    workload: Workload,
    prefix: String,
    began: Instant,
    timeout: Duration,
}

impl Run {
    async fn one(&self, index: usize) -> Result<RustInstanceTiming, String> {
        let instance = format!("{}{index}", self.prefix);
        let end = self.tracking.end_of(&instance);
        let started_ms = self.began.elapsed().as_secs_f64() * 1000.0;
        self.client
            .start_orchestration(&instance, self.workload.orchestration, self.workload.input.clone())
            .await
            .map_err(|error| format!("starting {instance}: {error}"))?;
        workloads::after_start(&self.client, &self.workload, &instance).await?;
        match tokio::time::timeout(self.timeout, end).await {
            Err(_) => return Err(format!("{instance} did not finish within {:?}", self.timeout)),
            Ok(Err(_)) => return Err(format!("{instance}: the completion tracker went away")),
            Ok(Ok(Err(output))) => return Err(format!("{instance} failed: {output}")),
            Ok(Ok(Ok(()))) => {}
        }
        Ok(RustInstanceTiming {
            started_ms,
            finished_ms: self.began.elapsed().as_secs_f64() * 1000.0,
        })
    }
}

/// Starts `run.instances` instances, `in_flight` at a time, each lane starting its next
/// instance when the previous one ends.
async fn drive(run: Arc<Run>, instances: usize, in_flight: usize) -> Result<Vec<RustInstanceTiming>, String> {
    let next = Arc::new(AtomicUsize::new(0));
    let timings = Arc::new(Mutex::new((0..instances).map(|_| None).collect::<Vec<_>>()));
    let mut lanes = JoinSet::new();
    for _ in 0..in_flight.min(instances) {
        let (run, next, timings) = (Arc::clone(&run), Arc::clone(&next), Arc::clone(&timings));
        lanes.spawn(async move {
            loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= instances {
                    return Ok::<(), String>(());
                }
                let timing = run.one(index).await?;
                timings.lock().unwrap_or_else(|poisoned| poisoned.into_inner())[index] = Some(timing);
            }
        });
    }
    while let Some(lane) = lanes.join_next().await {
        lane.map_err(|error| format!("a benchmark lane failed: {error}"))??;
    }
    let timings = std::mem::take(&mut *timings.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
    Ok(timings.into_iter().flatten().collect())
}

/// Runs a bench workload on the Rust runtime over duroxide-pg on `schema` (migrated by
/// duroxide-pg when needed), with duroxide's default polling and the given concurrency.
///
/// @throws when the workload is unknown, the database cannot be reached, or an instance fails
/// or does not finish in time.
#[napi]
pub async fn run_rust_benchmark(
    database_url: String,
    schema: String,
    options: RustBenchmarkOptions,
) -> napi::Result<RustBenchmarkResult> {
    let workload = workloads::workload(&options.workload)
        .ok_or_else(|| js_error(format!("the Rust bench has no workload named {}", options.workload)))?;
    let store = PostgresProvider::new_with_schema(&database_url, Some(&schema))
        .await
        .map_err(|error| js_error(format!("duroxide-pg could not open schema {schema}: {error:#}")))?;
    let store: Arc<dyn Provider> = Arc::new(store);
    let tracking = Arc::new(CompletionTracking::new(store));
    let provider: Arc<dyn Provider> = Arc::clone(&tracking) as Arc<dyn Provider>;
    let runtime = Runtime::start_with_options(
        Arc::clone(&provider),
        workloads::activities(),
        workloads::orchestrations(),
        RuntimeOptions {
            orchestration_concurrency: options.orchestration_concurrency as usize,
            worker_concurrency: options.worker_concurrency as usize,
            ..RuntimeOptions::default()
        },
    )
    .await;
    let run = Arc::new(Run {
        client: Client::new(provider),
        tracking: Arc::clone(&tracking),
        workload,
        prefix: options.instance_prefix,
        began: Instant::now(),
        timeout: Duration::from_millis(options.instance_timeout_ms.into()),
    });
    let driven = drive(run, options.instances as usize, options.in_flight.max(1) as usize).await;
    // Stopped before any error is reported, so nothing keeps polling a schema about to be dropped.
    runtime.shutdown(Some(1_000)).await;
    let timings = driven.map_err(js_error)?;
    Ok(RustBenchmarkResult {
        timings,
        activity_acks: tracking.activity_acks(),
    })
}
