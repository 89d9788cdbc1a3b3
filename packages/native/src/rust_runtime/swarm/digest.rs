//! The swarm's `SwarmDigest` sub-orchestration on the Rust runtime, as
//! `apps/pilot-e2e/src/workload/digest-orchestration.ts`: it subscribes to an external event and,
//! in the same turn, schedules the activity that raises it through the client.

use duroxide::OrchestrationContext;

use super::session::client_call_retry;
use super::session_state::{DigestInput, RaiseDigestInput};
use crate::rust_runtime::scenarios::{from_json, json};

pub const DIGEST_ORCHESTRATION: &str = "SwarmDigest";
pub const RAISE_DIGEST: &str = "SwarmRaiseDigest";
pub const DIGEST_EVENT: &str = "digest-ready";

/// The id of the digest a session runs after turn `turn` (`digestInstanceId` in TypeScript).
pub fn digest_instance_id(session: &str, turn: u64) -> String {
    format!("{session}:digest-{turn}")
}

/// The orchestration body, registered under [`DIGEST_ORCHESTRATION`].
pub async fn digest_orchestration(ctx: OrchestrationContext, input: String) -> Result<String, String> {
    let input: DigestInput = from_json(&input)?;
    let raise = RaiseDigestInput {
        instance: ctx.instance_id().to_string(),
        turn: input.turn,
    };
    let ready = ctx.schedule_wait(DIGEST_EVENT);
    let raised = ctx.schedule_activity_with_retry(RAISE_DIGEST, json(&raise), client_call_retry());
    let (ready, raised) = ctx.join2(ready, raised).await;
    raised?;
    Ok(ready)
}
