//! The swarm's activities on the Rust runtime, as `apps/pilot-e2e/src/workload/activities.ts`
//! runs them: a session-affine turn of some length and the tool steps after it, and those that
//! call the client (notify the parent, start a child, raise a digest's event). A failed client
//! call returns an error, which the session's retry policy retries.

use std::future::Future;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use duroxide::runtime::registry::{ActivityRegistry, ActivityRegistryBuilder};
use duroxide::ActivityContext;
use serde::de::DeserializeOwned;

use super::digest::{DIGEST_EVENT, RAISE_DIGEST};
use super::session::{NOTIFY_PARENT, SESSION_ORCHESTRATION, SESSION_QUEUE, SPAWN_CHILD, TOOL, TURN};
use super::session_state::{
    ChildUpdate, DigestReady, NotifyParentInput, RaiseDigestInput, SpawnChildInput, ToolInput, TurnInput, TurnOutput,
};
use crate::rust_runtime::scenarios::{add_activity, json};

/// How long the last turn of an execution lingers after announcing continue-as-new.
const CONTINUE_AS_NEW_ANNOUNCE_LEAD: Duration = Duration::from_millis(30);

/// What the hosting process learns about the worker's work, for chaos timing and the report.
#[derive(Default)]
pub struct WorkerObserver {
    /// Turn activities running now.
    pub in_flight: AtomicI64,
    /// Activities that returned a result. Counted here because duroxide 0.1.32's
    /// `activity_success` counts each success twice (once when it runs, once when it is acked).
    pub activities_succeeded: AtomicU64,
    /// Runs of the session orchestration: one per orchestration turn, as every turn replays it
    /// from the start.
    pub orchestration_turns: AtomicU64,
    /// Sessions whose last turn before continue-as-new is running, not yet taken by the host.
    pub continue_as_new_soon: Mutex<Vec<String>>,
}

impl WorkerObserver {
    fn count_success<T>(&self, result: Result<T, String>) -> Result<T, String> {
        if result.is_ok() {
            self.activities_succeeded.fetch_add(1, Ordering::Relaxed);
        }
        result
    }
}

/// Counts a turn in flight for as long as it lives, even when its future is dropped.
struct InFlight<'a>(&'a WorkerObserver);

impl<'a> InFlight<'a> {
    fn enter(observer: &'a WorkerObserver) -> Self {
        observer.in_flight.fetch_add(1, Ordering::Relaxed);
        Self(observer)
    }
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::Relaxed);
    }
}

async fn run_turn(observer: &WorkerObserver, ctx: &ActivityContext, turn: TurnInput) -> Result<TurnOutput, String> {
    let _in_flight = InFlight::enter(observer);
    tokio::select! {
        () = tokio::time::sleep(Duration::from_millis(turn.duration_ms)) => {}
        () = ctx.cancelled() => {}
    }
    if turn.before_continue_as_new {
        observer
            .continue_as_new_soon
            .lock()
            .map_err(|error| error.to_string())?
            .push(turn.session);
        tokio::time::sleep(CONTINUE_AS_NEW_ANNOUNCE_LEAD).await;
    }
    Ok(TurnOutput {
        worker: ctx.worker_id().to_string(),
    })
}

async fn run_tool(ctx: ActivityContext, tool: ToolInput) -> Result<(), String> {
    // A cancelled step stops at once; its result is discarded either way.
    tokio::select! {
        () = tokio::time::sleep(Duration::from_millis(tool.duration_ms)) => {}
        () = ctx.cancelled() => {}
    }
    Ok(())
}

async fn raise_digest(ctx: ActivityContext, input: RaiseDigestInput) -> Result<(), String> {
    let ready = DigestReady { turn: input.turn };
    ctx.get_client()
        .raise_event(&input.instance, DIGEST_EVENT, json(&ready))
        .await
        .map_err(|error| format!("raising {DIGEST_EVENT} on {}: {error}", input.instance))
}

async fn notify_parent(ctx: ActivityContext, input: NotifyParentInput) -> Result<(), String> {
    let update = ChildUpdate {
        kind: "update",
        from: &input.from,
        seq: input.seq,
        nonce: uuid::Uuid::new_v4().to_string(),
        is_final: input.is_final,
    };
    ctx.get_client()
        .enqueue_event(&input.parent, SESSION_QUEUE, json(&update))
        .await
        .map_err(|error| format!("enqueueing an update for {}: {error}", input.parent))
}

async fn spawn_child(ctx: ActivityContext, child: SpawnChildInput) -> Result<(), String> {
    // Starting an id that exists is ignored, so a re-run after a crash starts nothing twice.
    ctx.get_client()
        .start_orchestration(&child.id, SESSION_ORCHESTRATION, json(&child.input))
        .await
        .map_err(|error| format!("starting child {}: {error}", child.id))
}

/// Adds activity `name`, which runs `run` and counts its successes on `observer`.
fn add_counted<In, F, Fut>(
    builder: ActivityRegistryBuilder,
    observer: &Arc<WorkerObserver>,
    name: &'static str,
    run: F,
) -> ActivityRegistryBuilder
where
    In: DeserializeOwned + Send + 'static,
    F: Fn(ActivityContext, In) -> Fut + Send + Sync + Clone + 'static,
    Fut: Future<Output = Result<(), String>> + Send + 'static,
{
    let observer = Arc::clone(observer);
    add_activity(builder, name, move |ctx: ActivityContext, input: In| {
        let observer = Arc::clone(&observer);
        let running = run(ctx, input);
        async move { observer.count_success(running.await) }
    })
}

/// The session's and the digest's activities, reporting to `observer`.
pub fn activity_registry(observer: Arc<WorkerObserver>) -> ActivityRegistry {
    let turn_observer = Arc::clone(&observer);
    let builder = add_activity(
        ActivityRegistry::builder(),
        TURN,
        move |ctx: ActivityContext, turn: TurnInput| {
            let observer = Arc::clone(&turn_observer);
            async move { observer.count_success(run_turn(&observer, &ctx, turn).await) }
        },
    );
    let builder = add_counted(builder, &observer, TOOL, run_tool);
    let builder = add_counted(builder, &observer, RAISE_DIGEST, raise_digest);
    let builder = add_counted(builder, &observer, NOTIFY_PARENT, notify_parent);
    add_counted(builder, &observer, SPAWN_CHILD, spawn_child).build()
}
