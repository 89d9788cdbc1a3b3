//! The benchmark workloads for the Rust runtime, under the names, inputs and shapes duro's
//! bench uses (tools/bench/src/workloads.ts), so both runtimes do the same work.

use std::time::Duration;

use duroxide::runtime::registry::ActivityRegistry;
use duroxide::OrchestrationRegistry;
use duroxide::{ActivityContext, Client, OrchestrationContext};

use super::super::scenarios::{add_activity, add_orchestration, decoded, from_json, json};

const ACTIVITIES_PER_INSTANCE: usize = 5;
/// Activities of sequential-50, whose history grows to about a hundred events.
const LONG_SEQUENCE_ACTIVITIES: usize = 50;
const TIMERS_PER_INSTANCE: usize = 5;
const BURST_MESSAGES: i64 = 10;
const BURST_QUEUE: &str = "burst";

/// One workload: the orchestration its instances run, and their input as JSON text.
pub struct Workload {
    pub orchestration: &'static str,
    pub input: String,
    /// Queue burst sends its messages right after the start.
    pub sends_burst: bool,
}

/// The workload named `name`, as the bench names it.
pub fn workload(name: &str) -> Option<Workload> {
    let (orchestration, input) = match name {
        "hello" => ("BenchHello", json("bench")),
        "fan-out-5" => ("BenchFanOut", json(&10)),
        "sequential-5" => ("BenchSequential", json(&10)),
        "sequential-50" => ("BenchLongSequence", json(&1)),
        "timer-heavy" => ("BenchTimers", json(&10)),
        "continue-as-new" => ("BenchChain", json(&4)),
        "queue-burst" => ("BenchQueueBurst", json(&BURST_MESSAGES)),
        _ => return None,
    };
    Some(Workload {
        orchestration,
        input,
        sends_burst: name == "queue-burst",
    })
}

/// What the client does after starting an instance of `workload`.
pub async fn after_start(client: &Client, workload: &Workload, instance: &str) -> Result<(), String> {
    if !workload.sends_burst {
        return Ok(());
    }
    for message in 0..BURST_MESSAGES {
        client
            .enqueue_event(instance, BURST_QUEUE, json(&message))
            .await
            .map_err(|error| format!("enqueueing to {instance}: {error}"))?;
    }
    Ok(())
}

pub fn activities() -> ActivityRegistry {
    let builder = ActivityRegistry::builder();
    let builder = add_activity(
        builder,
        "BenchGreet",
        |_ctx: ActivityContext, name: String| async move { Ok(format!("Hello, {name}!")) },
    );
    add_activity(builder, "BenchSleep", |_ctx: ActivityContext, ms: u64| async move {
        tokio::time::sleep(Duration::from_millis(ms)).await;
        Ok(ms)
    })
    .build()
}

/// Runs `count` sleep activities of `ms` one after another.
async fn sleep_in_sequence(ctx: OrchestrationContext, ms: u64, count: usize) -> Result<usize, String> {
    for _ in 0..count {
        decoded::<u64>(ctx.schedule_activity("BenchSleep", json(&ms))).await?;
    }
    Ok(count)
}

pub fn orchestrations() -> OrchestrationRegistry {
    // The registry helpers remember names for the scenario catalogue; the bench needs none.
    let mut names = Vec::new();
    let builder = OrchestrationRegistry::builder();
    let builder = add_orchestration(
        builder,
        &mut names,
        "BenchHello",
        |ctx: OrchestrationContext, name: String| async move {
            decoded::<String>(ctx.schedule_activity("BenchGreet", json(&name))).await
        },
    );
    let builder = add_orchestration(
        builder,
        &mut names,
        "BenchFanOut",
        |ctx: OrchestrationContext, ms: u64| async move {
            let tasks = (0..ACTIVITIES_PER_INSTANCE)
                .map(|_| ctx.schedule_activity("BenchSleep", json(&ms)))
                .collect::<Vec<_>>();
            let results = ctx.join(tasks).await;
            for result in &results {
                result.clone()?;
            }
            Ok(results.len())
        },
    );
    let builder = add_orchestration(
        builder,
        &mut names,
        "BenchSequential",
        |ctx: OrchestrationContext, ms: u64| sleep_in_sequence(ctx, ms, ACTIVITIES_PER_INSTANCE),
    );
    let builder = add_orchestration(
        builder,
        &mut names,
        "BenchLongSequence",
        |ctx: OrchestrationContext, ms: u64| sleep_in_sequence(ctx, ms, LONG_SEQUENCE_ACTIVITIES),
    );
    let builder = add_orchestration(
        builder,
        &mut names,
        "BenchTimers",
        |ctx: OrchestrationContext, ms: u64| async move {
            for _ in 0..TIMERS_PER_INSTANCE {
                ctx.schedule_timer(Duration::from_millis(ms)).await;
            }
            Ok(TIMERS_PER_INSTANCE)
        },
    );
    let builder = add_orchestration(
        builder,
        &mut names,
        "BenchChain",
        |ctx: OrchestrationContext, remaining: u64| async move {
            if remaining > 0 {
                ctx.continue_as_new(json(&(remaining - 1))).await?;
            }
            Ok("done".to_string())
        },
    );
    add_orchestration(
        builder,
        &mut names,
        "BenchQueueBurst",
        |ctx: OrchestrationContext, count: i64| async move {
            let mut sum = 0;
            for _ in 0..count {
                sum += from_json::<i64>(&ctx.dequeue_event(BURST_QUEUE).await)?;
            }
            Ok(sum)
        },
    )
    .build()
}
