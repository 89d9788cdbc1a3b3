//! The bench's workloads on the Rust duroxide runtime with duroxide-pg: a worker that runs them
//! and reports each instance the moment its final turn commits, and a client that starts
//! instances. The bench runs workers in processes of their own and the client in its own.

mod completion_tracking;
mod workloads;

use std::sync::Arc;
use std::time::Duration;

use duroxide::providers::Provider;
use duroxide::runtime::{Runtime, RuntimeOptions};
use duroxide::Client;
use duroxide_pg::PostgresProvider;
use napi_derive::napi;
use tokio::sync::{mpsc, watch, Mutex};

use crate::errors::js_error;
use completion_tracking::CompletionTracking;
pub use completion_tracking::RustBenchCompletion;
use workloads::Workload;

/// The Rust runtime's settings for a bench worker.
#[napi(object)]
pub struct RustBenchWorkerOptions {
    /// Orchestration turns processed at once (duroxide's `orchestration_concurrency`).
    pub orchestration_concurrency: u32,
    /// Activities run at once (duroxide's `worker_concurrency`).
    pub worker_concurrency: u32,
    /// How long an idle dispatcher waits before it polls again, ms (duroxide's
    /// `dispatcher_min_poll_interval`; duroxide-pg does not long-poll).
    pub dispatcher_poll_interval_ms: u32,
    /// Connections of the duroxide-pg pool.
    pub pool_max_connections: u32,
}

fn workload_named(name: &str) -> napi::Result<Workload> {
    workloads::workload(name).ok_or_else(|| js_error(format!("the Rust bench has no workload named {name}")))
}

/// Opens duroxide-pg on `schema` (migrating it when needed) with a pool of `connections`.
async fn open_store(database_url: &str, schema: &str, connections: u32) -> napi::Result<PostgresProvider> {
    // duroxide-pg reads its pool size from this variable when a provider is built from a URL;
    // nothing else in the process reads it.
    std::env::set_var("DUROXIDE_PG_POOL_MAX", connections.max(1).to_string());
    PostgresProvider::new_with_schema(database_url, Some(schema))
        .await
        .map_err(|error| js_error(format!("duroxide-pg could not open schema {schema}: {error:#}")))
}

/// A Rust runtime serving every bench workload on one schema. Read what it completes with
/// `nextCompletions()`; stop it with `stop()`.
#[napi]
pub struct RustBenchWorker {
    runtime: Mutex<Option<Arc<Runtime>>>,
    store: Arc<PostgresProvider>,
    tracking: Arc<CompletionTracking>,
    completions: Mutex<mpsc::UnboundedReceiver<RustBenchCompletion>>,
    /// Becomes true once `stop()` has shut the runtime down, ending a wait for completions.
    stopped: watch::Sender<bool>,
}

#[napi]
impl RustBenchWorker {
    /// Waits until at least one instance has ended since the last call, and returns every
    /// instance that has; an empty list once the worker has stopped.
    #[napi]
    pub async fn next_completions(&self) -> Vec<RustBenchCompletion> {
        let mut stopped = self.stopped.subscribe();
        let mut receiver = self.completions.lock().await;
        let mut ended = Vec::new();
        if *stopped.borrow_and_update() {
            return ended;
        }
        tokio::select! {
            first = receiver.recv() => match first {
                None => return ended,
                Some(first) => ended.push(first),
            },
            _ = stopped.changed() => return ended,
        }
        while let Ok(next) = receiver.try_recv() {
            ended.push(next);
        }
        ended
    }

    /// Activities acknowledged so far.
    #[napi]
    pub fn activity_acks(&self) -> u32 {
        self.tracking.activity_acks()
    }

    /// Shuts the runtime down (waiting up to one second for work in flight); later calls do
    /// nothing.
    #[napi]
    pub async fn stop(&self) -> napi::Result<()> {
        if let Some(runtime) = self.runtime.lock().await.take() {
            runtime.shutdown(Some(1_000)).await;
        }
        self.store.pool().close().await;
        self.stopped.send_replace(true);
        Ok(())
    }
}

/// Starts a Rust runtime with the bench's orchestrations and activities on `schema` over
/// duroxide-pg (migrating the schema when needed), with the given settings.
///
/// @throws when the database cannot be reached.
#[napi]
pub async fn start_rust_bench_worker(
    database_url: String,
    schema: String,
    options: RustBenchWorkerOptions,
) -> napi::Result<RustBenchWorker> {
    let store = Arc::new(open_store(&database_url, &schema, options.pool_max_connections).await?);
    let (tracking, completions) = CompletionTracking::new(Arc::clone(&store) as Arc<dyn Provider>);
    let tracking = Arc::new(tracking);
    let runtime = Runtime::start_with_options(
        Arc::clone(&tracking) as Arc<dyn Provider>,
        workloads::activities(),
        workloads::orchestrations(),
        RuntimeOptions {
            orchestration_concurrency: options.orchestration_concurrency as usize,
            worker_concurrency: options.worker_concurrency as usize,
            dispatcher_min_poll_interval: Duration::from_millis(options.dispatcher_poll_interval_ms.into()),
            ..RuntimeOptions::default()
        },
    )
    .await;
    Ok(RustBenchWorker {
        runtime: Mutex::new(Some(runtime)),
        store,
        tracking,
        completions: Mutex::new(completions),
        stopped: watch::channel(false).0,
    })
}

/// A duroxide client that starts instances of one bench workload.
#[napi]
pub struct RustBenchClient {
    client: Client,
    store: Arc<PostgresProvider>,
    workload: Workload,
}

#[napi]
impl RustBenchClient {
    /// Starts `instance` (and, for queue-burst, sends its messages).
    ///
    /// @throws when the start or a message is not stored.
    #[napi]
    pub async fn start(&self, instance: String) -> napi::Result<()> {
        self.client
            .start_orchestration(&instance, self.workload.orchestration, self.workload.input.clone())
            .await
            .map_err(|error| js_error(format!("starting {instance}: {error}")))?;
        workloads::after_start(&self.client, &self.workload, &instance)
            .await
            .map_err(js_error)
    }

    /// Closes the client's connections.
    #[napi]
    pub async fn close(&self) {
        self.store.pool().close().await;
    }
}

/// A client for `workload` on `schema` over duroxide-pg, with a pool of `poolMaxConnections`.
///
/// @throws when the workload is unknown or the database cannot be reached.
#[napi]
pub async fn connect_rust_bench_client(
    database_url: String,
    schema: String,
    workload: String,
    pool_max_connections: u32,
) -> napi::Result<RustBenchClient> {
    let workload = workload_named(&workload)?;
    let store = Arc::new(open_store(&database_url, &schema, pool_max_connections).await?);
    Ok(RustBenchClient {
        client: Client::new(Arc::clone(&store) as Arc<dyn Provider>),
        store,
        workload,
    })
}
