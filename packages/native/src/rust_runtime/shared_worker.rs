//! A Rust duroxide worker that JavaScript starts and stops on a duroxide-pg schema or a duroxide
//! SQLite file, to share one store's queues with duro workers. It serves a small orchestration
//! set whose only activity, `Side`, says which runtime ran it, so a test can tell the two sides'
//! work apart.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use duroxide::providers::sqlite::SqliteProvider;
use duroxide::providers::Provider;
use duroxide::runtime::registry::ActivityRegistry;
use duroxide::runtime::Runtime;
use duroxide::{ActivityContext, OrchestrationContext, OrchestrationRegistry};
use duroxide_pg::PostgresProvider;
use napi_derive::napi;

use super::harness::runtime_options;
use super::scenarios::{add_activity, add_orchestration, from_json, json};
use crate::errors::js_error;

/// Long enough that a batch of `Side` activities overlaps the other side's fetches.
const SIDE_ACTIVITY_TIME: Duration = Duration::from_millis(20);

/// The inputs of every `Side` activity a worker ran, in the order it ran them.
type ActivityLog = Arc<Mutex<Vec<String>>>;

fn activity_registry(log: ActivityLog) -> ActivityRegistry {
    add_activity(
        ActivityRegistry::builder(),
        "Side",
        move |_ctx: ActivityContext, input: String| {
            let log = Arc::clone(&log);
            async move {
                log.lock().map_err(|error| error.to_string())?.push(input.clone());
                tokio::time::sleep(SIDE_ACTIVITY_TIME).await;
                Ok(format!("rust:{input}"))
            }
        },
    )
    .build()
}

/// `SharedDrain` runs `Side` once; `SharedHandoff` runs it, waits for the `Go` event (with the
/// custom status `waiting`), then runs it again, so its two halves can run on different sides.
fn orchestration_registry() -> OrchestrationRegistry {
    let mut names = Vec::new();
    let builder = add_orchestration(
        OrchestrationRegistry::builder(),
        &mut names,
        "SharedDrain",
        |ctx: OrchestrationContext, input: String| async move {
            from_json::<String>(&ctx.schedule_activity("Side", json(&input)).await?)
        },
    );
    add_orchestration(
        builder,
        &mut names,
        "SharedHandoff",
        |ctx: OrchestrationContext, input: String| async move {
            let first: String = from_json(&ctx.schedule_activity("Side", json(&input)).await?)?;
            ctx.set_custom_status("waiting");
            ctx.schedule_wait("Go").await;
            let second: String = from_json(&ctx.schedule_activity("Side", json(&input)).await?)?;
            Ok(format!("{first} then {second}"))
        },
    )
    .build()
}

/// A running Rust duroxide runtime on one duroxide-pg schema or SQLite file, serving
/// `SharedDrain` and `SharedHandoff`. Stop it with `stop()`.
#[napi]
pub struct RustWorker {
    runtime: tokio::sync::Mutex<Option<Arc<Runtime>>>,
    log: ActivityLog,
}

#[napi]
impl RustWorker {
    /// The inputs of every `Side` activity this worker ran, in the order it ran them.
    #[napi]
    pub fn activity_inputs(&self) -> napi::Result<Vec<String>> {
        let log = self.log.lock().map_err(|error| js_error(error.to_string()))?;
        Ok(log.clone())
    }

    /// Shuts the runtime down (waiting up to one second for work in flight); later calls do
    /// nothing.
    #[napi]
    pub async fn stop(&self) -> napi::Result<()> {
        if let Some(runtime) = self.runtime.lock().await.take() {
            runtime.shutdown(Some(1_000)).await;
        }
        Ok(())
    }
}

/// Starts a Rust worker on `schema` (created and migrated by duroxide-pg when needed), with the
/// scenario harness's runtime settings.
///
/// @throws when the database cannot be reached.
#[napi]
pub async fn start_rust_worker_on_postgres(database_url: String, schema: String) -> napi::Result<RustWorker> {
    let provider = PostgresProvider::new_with_schema(&database_url, Some(&schema))
        .await
        .map_err(|error| js_error(format!("duroxide-pg could not open schema {schema}: {error:#}")))?;
    Ok(start_rust_worker(Arc::new(provider)).await)
}

/// Starts a Rust worker on the SQLite file at `path` (created when missing, then migrated by
/// duroxide's SQLite provider as it does on every start), with the scenario harness's runtime
/// settings.
///
/// @throws when the file cannot be opened or its schema is refused.
#[napi]
pub async fn start_rust_worker_on_sqlite(path: String) -> napi::Result<RustWorker> {
    let provider = SqliteProvider::new(&format!("sqlite:{path}?mode=rwc"), None)
        .await
        .map_err(|error| js_error(format!("duroxide's SQLite provider could not open {path}: {error:#}")))?;
    Ok(start_rust_worker(Arc::new(provider)).await)
}

async fn start_rust_worker(provider: Arc<dyn Provider>) -> RustWorker {
    let log = ActivityLog::default();
    let runtime = Runtime::start_with_options(
        provider,
        activity_registry(Arc::clone(&log)),
        orchestration_registry(),
        runtime_options(),
    )
    .await;
    RustWorker {
        runtime: tokio::sync::Mutex::new(Some(runtime)),
        log,
    }
}
