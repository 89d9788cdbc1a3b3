//! The Rust duroxide runtime inside Node: the scenario catalogue run on a duroxide-pg
//! `PostgresProvider`, or on a JavaScript provider through the bridge; and the bench's workloads.

mod benchmark;
mod catalogue;
mod harness;
mod outcome;
mod scenarios;
mod shared_worker;
mod swarm;

use std::sync::Arc;
use std::time::Duration;

use duroxide::providers::Provider;
use duroxide_pg::PostgresProvider;
use napi_derive::napi;

use crate::errors::js_error;
use crate::js_provider::JsProvider;
use crate::wire::provider_calls::WireProvider;
use catalogue::ScenarioSpec;
pub use outcome::ScenarioOutcome;

/// Which scenarios to run and how instances are named.
#[napi(object, use_nullable = true)]
pub struct RustScenarioOptions {
    /// Put before every scenario name to form its instance id, so runs on one store never meet.
    pub instance_prefix: String,
    /// Catalogue names to run; `null` runs the whole catalogue.
    pub names: Option<Vec<String>>,
    /// How long one wait (for an instance, or for a custom status) may take, in milliseconds.
    /// `null` means 30 000.
    pub timeout_ms: Option<u32>,
}

const DEFAULT_TIMEOUT_MS: u32 = 30_000;

fn selected_scenarios(names: Option<&[String]>) -> napi::Result<Vec<ScenarioSpec>> {
    let all = catalogue::scenarios();
    let Some(names) = names else {
        return Ok(all);
    };
    names
        .iter()
        .map(|name| {
            all.iter()
                .find(|spec| &spec.name == name)
                .cloned()
                .ok_or_else(|| js_error(format!("the scenario catalogue has no scenario named {name}")))
        })
        .collect()
}

async fn run(provider: Arc<dyn Provider>, options: RustScenarioOptions) -> napi::Result<Vec<ScenarioOutcome>> {
    let specs = selected_scenarios(options.names.as_deref())?;
    let timeout = Duration::from_millis(options.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS).into());
    harness::run_scenarios(provider, specs, &options.instance_prefix, timeout)
        .await
        .map_err(js_error)
}

/// Runs catalogue scenarios on the Rust runtime with duroxide-pg's `PostgresProvider` on
/// `schema` (created and migrated by duroxide-pg when needed).
///
/// @throws when the database cannot be reached, or a scenario fails to start or finish in time.
#[napi]
pub async fn run_rust_scenarios_on_postgres(
    database_url: String,
    schema: String,
    options: RustScenarioOptions,
) -> napi::Result<Vec<ScenarioOutcome>> {
    let provider = PostgresProvider::new_with_schema(&database_url, Some(&schema))
        .await
        .map_err(|error| js_error(format!("duroxide-pg could not open schema {schema}: {error:#}")))?;
    run(Arc::new(provider), options).await
}

/// Runs catalogue scenarios on the Rust runtime over a duro provider, through the bridge.
///
/// @throws when a scenario fails to start or finish in time.
#[napi]
pub async fn run_rust_scenarios_on_provider(
    provider: WireProvider,
    options: RustScenarioOptions,
) -> napi::Result<Vec<ScenarioOutcome>> {
    run(Arc::new(JsProvider::new(provider)), options).await
}
