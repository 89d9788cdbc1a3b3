//! Fetches whose caller may stop waiting. duroxide drops a dispatcher's fetch when its runtime
//! shuts down; a duroxide-pg fetch dropped mid-poll claims nothing, but the JavaScript provider's
//! long poll goes on and may claim a message after the Rust side stopped listening, and a claim
//! already on its way back when the fetch was dropped is in the same place. Such a claim would
//! hold its lock until it lapses, which only a safety-net poll notices, so here it is given back
//! instead: abandoned without counting an attempt, visible again after `GIVE_BACK_DELAY_MS`.
//!
//! Not at once: the runtime stopped with the message claimed, and whoever looks right after the
//! shutdown must find it out of sight, as a duroxide-pg claim would be. duroxide's
//! continue_as_new_unregistered_backoff looks exactly then, and read a start given back at once
//! as one its runtime never delayed. With a delay the provider knows when the message comes due
//! and wakes a waiting fetch for it.

use std::future::Future;
use std::sync::Arc;

use duroxide::providers::ProviderError;
use tokio::sync::oneshot;

use crate::wire::js_function::{call_js, JsAsyncFn};
use crate::wire::provider_calls::{AbandonArgs, WireProvider};
use crate::wire::provider_objects::{WireFetchedOrchestrationItem, WireFetchedWorkItem};

/// How long a given-back claim stays out of sight, ms: longer than a runtime's shutdown takes
/// to return after it dropped the fetch, far shorter than a lease.
const GIVE_BACK_DELAY_MS: i64 = 1_000;

/// A fetched message, as far as giving back its lock goes.
pub(super) trait Claim: Send + 'static {
    fn lock_token(&self) -> &str;
}

/// The queue a fetch claims from: it says which abandon gives a claim back.
#[derive(Clone, Copy)]
pub(super) enum Queue {
    Orchestrator,
    Worker,
}

impl Queue {
    fn abandon(self, wire: &WireProvider) -> (&JsAsyncFn<AbandonArgs, ()>, &'static str) {
        match self {
            Queue::Orchestrator => (&wire.abandon_orchestration_item, "abandon_orchestration_item"),
            Queue::Worker => (&wire.abandon_work_item, "abandon_work_item"),
        }
    }
}

/// Runs `fetch` on a task of its own and returns its outcome; when the caller is dropped before
/// it settles, a message it claimed anyway is given back (see the module's text).
pub(super) async fn fetch_or_give_back<T, F>(
    wire: &Arc<WireProvider>,
    queue: Queue,
    operation: &'static str,
    fetch: F,
) -> Result<Option<T>, ProviderError>
where
    T: Claim,
    F: Future<Output = Result<Option<T>, ProviderError>> + Send + 'static,
{
    let (sender, receiver) = oneshot::channel();
    let wire = Arc::clone(wire);
    tokio::spawn(async move {
        if let Err(Ok(Some(unwanted))) = sender.send(fetch.await) {
            let (abandon, abandon_operation) = queue.abandon(&wire);
            let args = AbandonArgs {
                lock_token: unwanted.lock_token().to_string(),
                delay_ms: Some(GIVE_BACK_DELAY_MS),
                ignore_attempt: true,
            };
            // Best effort: if this fails too, the lock lapses as it would have anyway.
            let _ = call_js(abandon, abandon_operation, args).await;
        }
    });
    receiver.await.unwrap_or_else(|_| {
        Err(ProviderError::permanent(
            operation,
            "the fetch task ended without an outcome",
        ))
    })
}

impl Claim for WireFetchedOrchestrationItem {
    fn lock_token(&self) -> &str {
        &self.lock_token
    }
}

impl Claim for WireFetchedWorkItem {
    fn lock_token(&self) -> &str {
        &self.lock_token
    }
}
