//! The benchmark workloads for the Rust runtime, under the names, inputs and shapes duro's
//! bench uses (tools/bench/src/workloads.ts), so both runtimes do the same work.

use std::time::Duration;

use duroxide::runtime::registry::ActivityRegistry;
use duroxide::OrchestrationRegistry;
use duroxide::{ActivityContext, Client, DurableFuture, OrchestrationContext};

use super::super::scenarios::{add_activity, add_orchestration, decoded, from_json, json};

const BURST_MESSAGES: i64 = 10;
const BURST_QUEUE: &str = "burst";

/// One workload: the orchestration its instances run, and their input as JSON text.
pub struct Workload {
    pub orchestration: &'static str,
    pub input: String,
    /// Queue burst sends its messages right after the start.
    pub sends_burst: bool,
}

/// The workload named `name`, as the bench names it. Fan-outs, sequences and timers take
/// `[count, ms]`: how many activities (or timers) and how long each sleeps (0: a no-op activity).
pub fn workload(name: &str) -> Option<Workload> {
    let (orchestration, input) = match name {
        "hello" => ("BenchHello", json("bench")),
        "fan-out-5" => ("BenchFanOut", json(&[5, 10])),
        "fan-out-5-noop" => ("BenchFanOut", json(&[5, 0])),
        "fan-out-100" => ("BenchFanOut", json(&[100, 0])),
        "sequential-5" => ("BenchSequential", json(&[5, 10])),
        "sequential-50" => ("BenchSequential", json(&[50, 1])),
        "timers-3" => ("BenchTimers", json(&[3, 10])),
        "can-chain-10" => ("BenchChain", json(&9)),
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
    let builder = add_activity(builder, "BenchNoop", |_ctx: ActivityContext, index: u64| async move {
        Ok(index)
    });
    add_activity(builder, "BenchSleep", |_ctx: ActivityContext, ms: u64| async move {
        tokio::time::sleep(Duration::from_millis(ms)).await;
        Ok(ms)
    })
    .build()
}

/// The activity a fan-out or sequence schedules: a sleep of `ms`, or a no-op for 0.
fn activity(ctx: &OrchestrationContext, index: u64, ms: u64) -> DurableFuture<Result<String, String>> {
    if ms == 0 {
        ctx.schedule_activity("BenchNoop", json(&index))
    } else {
        ctx.schedule_activity("BenchSleep", json(&ms))
    }
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
        |ctx: OrchestrationContext, [count, ms]: [u64; 2]| async move {
            let tasks = (0..count).map(|index| activity(&ctx, index, ms)).collect::<Vec<_>>();
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
        |ctx: OrchestrationContext, [count, ms]: [u64; 2]| async move {
            for index in 0..count {
                decoded::<u64>(activity(&ctx, index, ms)).await?;
            }
            Ok(count)
        },
    );
    let builder = add_orchestration(
        builder,
        &mut names,
        "BenchTimers",
        |ctx: OrchestrationContext, [count, ms]: [u64; 2]| async move {
            for _ in 0..count {
                ctx.schedule_timer(Duration::from_millis(ms)).await;
            }
            Ok(count)
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
