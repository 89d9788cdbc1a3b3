//! Runs catalogue scenarios on one duroxide runtime: starts each instance, takes its client
//! steps, waits for it and for every instance it started, and reads back all their histories.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use duroxide::providers::{Provider, TagFilter};
use duroxide::runtime::{Runtime, RuntimeOptions};
use duroxide::{build_child_instance_id, Client, EventKind, OrchestrationStatus};
use tokio::task::JoinSet;

use super::catalogue::{ClientStep, ScenarioSpec};
use super::outcome::{ScenarioExecution, ScenarioInstance, ScenarioOutcome};
use super::scenarios;
use crate::js_provider::u64_to_js;

/// How often the harness looks at an instance while it waits for a custom status.
const STATUS_POLL: Duration = Duration::from_millis(20);

/// The runtime configuration every scenario runs under: quick polling, a worker that fetches the
/// `gpu` tag next to untagged work (the `tags` scenario), and a short long-poll so shutdown is
/// prompt.
pub(super) fn runtime_options() -> RuntimeOptions {
    RuntimeOptions {
        dispatcher_min_poll_interval: Duration::from_millis(10),
        dispatcher_long_poll_timeout: Duration::from_millis(500),
        orchestration_concurrency: 4,
        worker_concurrency: 4,
        worker_tag_filter: TagFilter::default_and(["gpu"]),
        ..RuntimeOptions::default()
    }
}

/// Runs `specs` concurrently on a new runtime over `provider` and returns their outcomes in
/// the order given. Each instance is named `<prefix><scenario name>`.
pub async fn run_scenarios(
    provider: Arc<dyn Provider>,
    specs: Vec<ScenarioSpec>,
    prefix: &str,
    timeout: Duration,
) -> Result<Vec<ScenarioOutcome>, String> {
    let (orchestrations, registered) = scenarios::orchestration_registry();
    if let Some(missing) = specs
        .iter()
        .find(|spec| !registered.contains(&spec.orchestration.as_str()))
    {
        return Err(format!(
            "scenario {} names orchestration {}, which has no Rust implementation",
            missing.name, missing.orchestration
        ));
    }
    let runtime = Runtime::start_with_options(
        Arc::clone(&provider),
        scenarios::activity_registry(),
        orchestrations,
        runtime_options(),
    )
    .await;
    let client = Client::new(provider);
    let mut running = JoinSet::new();
    for (index, spec) in specs.into_iter().enumerate() {
        let client = client.clone();
        let instance = format!("{prefix}{}", spec.name);
        running.spawn(async move { (index, run_scenario(&client, &spec, &instance, timeout).await) });
    }
    let mut outcomes = Vec::new();
    let mut first_error = None;
    while let Some(joined) = running.join_next().await {
        match joined.map_err(|error| format!("a scenario task failed: {error}")) {
            Ok((index, Ok(outcome))) => outcomes.push((index, outcome)),
            Ok((_, Err(error))) | Err(error) => {
                first_error.get_or_insert(error);
            }
        }
    }
    // The runtime stops before any error is reported, so nothing keeps polling a store the
    // caller is about to drop.
    runtime.shutdown(Some(1_000)).await;
    if let Some(error) = first_error {
        return Err(error);
    }
    outcomes.sort_by_key(|(index, _)| *index);
    Ok(outcomes.into_iter().map(|(_, outcome)| outcome).collect())
}

async fn run_scenario(
    client: &Client,
    spec: &ScenarioSpec,
    instance: &str,
    timeout: Duration,
) -> Result<ScenarioOutcome, String> {
    let fail = |what: &str, error: &dyn std::fmt::Display| format!("scenario {}: {what}: {error}", spec.name);
    let input = spec.input.to_string();
    let started = match &spec.version {
        Some(version) => {
            client
                .start_orchestration_versioned(instance, &spec.orchestration, version, input)
                .await
        }
        None => client.start_orchestration(instance, &spec.orchestration, input).await,
    };
    started.map_err(|error| fail("start", &error))?;
    for step in &spec.steps {
        take_step(client, instance, step, timeout)
            .await
            .map_err(|error| fail("client step", &error))?;
    }
    let status = client
        .wait_for_orchestration(instance, timeout)
        .await
        .map_err(|error| fail("waiting for the instance", &error))?;
    // The scenario's instances are the ones its histories start (sub-orchestrations and
    // detached starts, recursively); each is waited for, since a detached or cancelled child
    // finishes after its parent.
    let mut instances = Vec::new();
    let mut pending = vec![instance.to_string()];
    let mut seen = BTreeSet::new();
    while let Some(id) = pending.pop() {
        if !seen.insert(id.clone()) {
            continue;
        }
        client
            .wait_for_orchestration(&id, timeout)
            .await
            .map_err(|error| fail(&format!("waiting for {id}"), &error))?;
        let (histories, started) = read_histories(client, &id)
            .await
            .map_err(|error| fail("reading history", &error))?;
        pending.extend(started);
        instances.push(histories);
    }
    instances.sort_by(|a, b| a.instance_id.cmp(&b.instance_id));
    let mut outcome = ScenarioOutcome::from_status(&spec.name, instance, status)?;
    outcome.instances = instances;
    Ok(outcome)
}

async fn take_step(client: &Client, instance: &str, step: &ClientStep, timeout: Duration) -> Result<(), String> {
    match step {
        ClientStep::WaitForCustomStatus { status } => wait_for_custom_status(client, instance, status, timeout).await,
        ClientStep::RaiseEvent { name, data } => client
            .raise_event(instance, name, data.to_string())
            .await
            .map_err(|error| error.to_string()),
        ClientStep::EnqueueEvent { queue, data } => client
            .enqueue_event(instance, queue, data.to_string())
            .await
            .map_err(|error| error.to_string()),
        ClientStep::Cancel { reason } => client
            .cancel_instance(instance, reason)
            .await
            .map_err(|error| error.to_string()),
    }
}

async fn wait_for_custom_status(
    client: &Client,
    instance: &str,
    wanted: &str,
    timeout: Duration,
) -> Result<(), String> {
    let deadline = Instant::now() + timeout;
    loop {
        let status = client
            .get_orchestration_status(instance)
            .await
            .map_err(|error| error.to_string())?;
        let custom_status = match &status {
            OrchestrationStatus::Running { custom_status, .. }
            | OrchestrationStatus::Completed { custom_status, .. }
            | OrchestrationStatus::Failed { custom_status, .. } => custom_status.as_deref(),
            OrchestrationStatus::NotFound => None,
        };
        if custom_status == Some(wanted) {
            return Ok(());
        }
        if Instant::now() >= deadline {
            return Err(format!("custom status never became {wanted:?}"));
        }
        tokio::time::sleep(STATUS_POLL).await;
    }
}

/// Every execution's history of `instance`, and the ids of the instances those executions
/// started.
async fn read_histories(client: &Client, instance: &str) -> Result<(ScenarioInstance, Vec<String>), String> {
    let mut executions = Vec::new();
    let mut started = Vec::new();
    for execution_id in client
        .list_executions(instance)
        .await
        .map_err(|error| error.to_string())?
    {
        let events = client
            .read_execution_history(instance, execution_id)
            .await
            .map_err(|error| error.to_string())?;
        for event in &events {
            if let EventKind::SubOrchestrationScheduled { instance: child, .. }
            | EventKind::OrchestrationChained { instance: child, .. } = &event.kind
            {
                started.push(build_child_instance_id(instance, child));
            }
        }
        let events = events
            .iter()
            .map(serde_json::to_string)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|error| error.to_string())?;
        executions.push(ScenarioExecution {
            execution_id: u64_to_js(execution_id),
            events,
        });
    }
    let histories = ScenarioInstance {
        instance_id: instance.to_string(),
        executions,
    };
    Ok((histories, started))
}
