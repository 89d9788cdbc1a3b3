//! The swarm's `SwarmSession` orchestration on the Rust runtime: step for step the generator of
//! `apps/pilot-e2e/src/workload/session-orchestration.ts`, scheduling the same actions in the
//! same order, with the same names and the same JSON payloads, so that any turn of a session
//! may run on either runtime and replay there.

use std::time::Duration;

use duroxide::{Either2, OrchestrationContext, RetryPolicy};

use super::digest::{digest_instance_id, DIGEST_ORCHESTRATION};
use super::kv_fifo::KvFifo;
use super::seeded_random::SeededRandom;
use super::session_state::{
    DigestInput, NotifyParentInput, SessionInput, SessionMessage, SessionStatus, SpawnChildInput, ToolInput, TurnInput,
};
use crate::rust_runtime::scenarios::{from_json, json};

pub const SESSION_ORCHESTRATION: &str = "SwarmSession";
pub const SESSION_QUEUE: &str = "messages";
pub const TURN: &str = "SwarmTurn";
pub const NOTIFY_PARENT: &str = "SwarmNotifyParent";
pub const SPAWN_CHILD: &str = "SwarmSpawnChild";
pub const TOOL: &str = "SwarmTool";

const DRAIN_TIMER_MS: u64 = 10;
const TURN_BATCH: u64 = 8;
const SHORT_TOOL_MS: u64 = 20;
const LONG_TOOL_MS: u64 = 40;
const FAN_OUT_TOOL_MS: u64 = 30;
const CANCELLED_TOOL_MS: u64 = 2_000;
const TOOL_TIMEOUT_MS: u64 = 50;
const FAN_OUT: u64 = 3;

/// The TypeScript `{ maxAttempts: 8, backoff: 'exponential' }`: duroxide's default backoff is
/// the same 100 ms doubling, capped at 30 s.
pub(super) fn client_call_retry() -> RetryPolicy {
    RetryPolicy::new(8)
}

/// The orchestration body, registered under [`SESSION_ORCHESTRATION`].
pub async fn session_orchestration(ctx: OrchestrationContext, input: String) -> Result<String, String> {
    let mut state: SessionInput = from_json(&input)?;
    let fifo = KvFifo::new(&ctx);
    let seed = state.knobs.seed.to_string();
    let execution = state.execution.to_string();
    let mut random = SeededRandom::new(&[&seed, &state.plan.id, &execution]);
    let every = state.knobs.continue_as_new_every;
    let rounds = random.between(every.min(3), every);
    let mut round = 1;
    loop {
        let idle = !has_work(&state, &fifo);
        let wait_ms = if idle {
            state.knobs.idle_timer_ms
        } else {
            first_wait_ms(&state, &mut random)
        };
        let woke = wait_for_message(&ctx, wait_ms).await?;
        match woke {
            None if idle => {
                state.idle_wakeups += 1;
                return continue_as_new(&ctx, state).await;
            }
            None => {}
            Some(message) => {
                accept(&mut state, &fifo, &message)?;
                drain(&ctx, &mut state, &fifo).await?;
            }
        }
        let last_round = round >= rounds;
        run_turn(&ctx, &mut state, &fifo, &mut random, last_round).await?;
        spawn_next_child(&ctx, &mut state, last_round).await?;
        report_to_parent(&ctx, &mut state).await?;
        state.iterations += 1;
        publish_status(&ctx, &state, &fifo);
        if finished(&state, &fifo) {
            if state.plan.parent.is_some() {
                notify_parent(&ctx, &state, true).await?;
            }
            return Ok(json(&state.summary()));
        }
        if last_round {
            return continue_as_new(&ctx, state).await;
        }
        round += 1;
    }
}

fn has_work(state: &SessionInput, fifo: &KvFifo) -> bool {
    fifo.size() > 0 || state.spawned < state.plan.children.len() as u64 || state.updates_sent < state.plan.updates
}

fn finished(state: &SessionInput, fifo: &KvFifo) -> bool {
    let plan = &state.plan;
    let own_work_done = match plan.parent {
        None => state.closed,
        Some(_) => state.updates_sent >= plan.updates,
    };
    let children = plan.children.len() as u64;
    own_work_done && fifo.size() == 0 && state.spawned == children && state.ledger.finished_children() == children
}

fn share(number: &serde_json::Number) -> f64 {
    number.as_f64().unwrap_or(0.0)
}

fn first_wait_ms(state: &SessionInput, random: &mut SeededRandom) -> u64 {
    if random.chance(share(&state.knobs.long_timer_share)) {
        state.knobs.long_timer_ms
    } else {
        DRAIN_TIMER_MS
    }
}

async fn continue_as_new(ctx: &OrchestrationContext, mut state: SessionInput) -> Result<String, String> {
    state.execution += 1;
    ctx.continue_as_new(json(&state)).await
}

/// Races the queue against a timer: the message, or `None` when the timer won.
async fn wait_for_message(ctx: &OrchestrationContext, timer_ms: u64) -> Result<Option<SessionMessage>, String> {
    let dequeue = ctx.dequeue_event(SESSION_QUEUE);
    let timer = ctx.schedule_timer(Duration::from_millis(timer_ms));
    match ctx.select2(dequeue, timer).await {
        Either2::First(data) => from_json(&data).map(Some),
        Either2::Second(()) => Ok(None),
    }
}

fn accept(state: &mut SessionInput, fifo: &KvFifo, message: &SessionMessage) -> Result<(), String> {
    fifo.push(&message.label())?;
    state.closed = state.closed || message.kind == "close";
    state.ledger.record(message);
    Ok(())
}

/// Takes every message already queued, until the 10 ms timer wins or the FIFO is full.
async fn drain(ctx: &OrchestrationContext, state: &mut SessionInput, fifo: &KvFifo<'_>) -> Result<(), String> {
    while !fifo.full() {
        match wait_for_message(ctx, DRAIN_TIMER_MS).await? {
            Some(message) => accept(state, fifo, &message)?,
            None => break,
        }
    }
    Ok(())
}

async fn run_turn(
    ctx: &OrchestrationContext,
    state: &mut SessionInput,
    fifo: &KvFifo<'_>,
    random: &mut SeededRandom,
    last_round: bool,
) -> Result<(), String> {
    let items = fifo.take(TURN_BATCH);
    if items.is_empty() && state.updates_sent >= state.plan.updates {
        return Ok(());
    }
    let knobs = &state.knobs;
    let duration_ms = if random.chance(share(&knobs.long_turn_share)) {
        knobs.long_turn_ms
    } else {
        random.between(knobs.turn_ms.0, knobs.turn_ms.1)
    };
    let turn = TurnInput {
        session: state.plan.id.clone(),
        iteration: state.iterations,
        items,
        duration_ms,
        before_continue_as_new: last_round,
    };
    ctx.schedule_activity_on_session(TURN, json(&turn), ctx.instance_id())
        .await?;
    turn_steps(ctx, &state.plan.id, state.turns).await?;
    state.turns += 1;
    Ok(())
}

/// What follows turn number `turn`, in rotation: a digest sub-orchestration, two tool steps one
/// after the other on the session, a fan-out of tool steps on the session, and a tool step that a
/// timer beats, which cancels it.
async fn turn_steps(ctx: &OrchestrationContext, session: &str, turn: u64) -> Result<(), String> {
    let tool = |step: String, duration_ms: u64| {
        let input = ToolInput {
            session: session.to_string(),
            step,
            duration_ms,
        };
        ctx.schedule_activity_on_session(TOOL, json(&input), session)
    };
    match turn % 4 {
        0 => {
            let input = DigestInput {
                session: session.to_string(),
                turn,
            };
            ctx.schedule_sub_orchestration_with_id(
                DIGEST_ORCHESTRATION,
                digest_instance_id(session, turn),
                json(&input),
            )
            .await?;
        }
        1 => {
            tool("first".to_string(), SHORT_TOOL_MS).await?;
            tool("second".to_string(), LONG_TOOL_MS).await?;
        }
        2 => {
            let fan_out = (0..FAN_OUT)
                .map(|index| tool(format!("fan-{index}"), FAN_OUT_TOOL_MS))
                .collect();
            for result in ctx.join(fan_out).await {
                result?;
            }
        }
        _ => {
            let cancelled = tool("cancelled".to_string(), CANCELLED_TOOL_MS);
            let timeout = ctx.schedule_timer(Duration::from_millis(TOOL_TIMEOUT_MS));
            if let Either2::First(result) = ctx.select2(cancelled, timeout).await {
                result?;
            }
        }
    }
    Ok(())
}

/// Starts the next planned child: detached on even turns, else from the spawn activity. A turn
/// that continues as new starts it from the activity as well: duroxide only sends a detached
/// start when the turn that records it waits or ends, not when it continues as new.
async fn spawn_next_child(
    ctx: &OrchestrationContext,
    state: &mut SessionInput,
    last_round: bool,
) -> Result<(), String> {
    let Some(child) = state.plan.children.get(state.spawned as usize) else {
        return Ok(());
    };
    let input = SessionInput::initial(child.clone(), state.knobs.clone());
    if state.spawned % 2 == 0 && !last_round {
        ctx.schedule_orchestration(SESSION_ORCHESTRATION, &child.id, json(&input));
    } else {
        let spawn = SpawnChildInput {
            id: child.id.clone(),
            input,
        };
        ctx.schedule_activity_with_retry(SPAWN_CHILD, json(&spawn), client_call_retry())
            .await?;
    }
    state.spawned += 1;
    Ok(())
}

async fn report_to_parent(ctx: &OrchestrationContext, state: &mut SessionInput) -> Result<(), String> {
    if state.plan.parent.is_none() || state.updates_sent >= state.plan.updates {
        return Ok(());
    }
    notify_parent(ctx, state, false).await?;
    state.updates_sent += 1;
    Ok(())
}

async fn notify_parent(ctx: &OrchestrationContext, state: &SessionInput, is_final: bool) -> Result<(), String> {
    let notify = NotifyParentInput {
        parent: state.plan.parent.clone().unwrap_or_default(),
        from: state.plan.id.clone(),
        seq: state.updates_sent,
        is_final,
    };
    ctx.schedule_activity_with_retry(NOTIFY_PARENT, json(&notify), client_call_retry())
        .await?;
    Ok(())
}

fn publish_status(ctx: &OrchestrationContext, state: &SessionInput, fifo: &KvFifo) {
    let status = SessionStatus {
        execution: state.execution,
        iterations: state.iterations,
        delivered: state.ledger.client,
        children_finished: state.ledger.finished_children(),
        pending: fifo.size(),
        anomalies: state.ledger.anomaly_count,
    };
    ctx.set_custom_status(json(&status));
}
