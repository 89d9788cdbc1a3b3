//! The swarm session's payloads, field for field and in the same key order as the TypeScript
//! types of `apps/pilot-e2e/src/workload` (`session-plan.ts`, `session-input.ts`,
//! `session-message.ts`, `activity-names.ts`), so both runtimes write the same JSON text.
//! Shares stay `serde_json::Number`, which writes `0` as `0` (not `0.0`) as JavaScript does.

use serde::{Deserialize, Serialize};
use serde_json::Number;

use super::delivery_ledger::DeliveryLedger;

/// What one session is going to do, planned by the coordinator.
#[derive(Serialize, Deserialize, Clone)]
#[serde(rename_all = "camelCase")]
pub struct SessionPlan {
    pub id: String,
    pub depth: u64,
    pub parent: Option<String>,
    pub client_messages: u64,
    pub updates: u64,
    pub children: Vec<SessionPlan>,
}

/// The workload settings a session carries in its input (durations in ms).
#[derive(Serialize, Deserialize, Clone)]
#[serde(rename_all = "camelCase")]
pub struct SessionKnobs {
    pub seed: Number,
    pub turn_ms: (u64, u64),
    pub long_turn_share: Number,
    pub long_turn_ms: u64,
    pub continue_as_new_every: u64,
    pub idle_timer_ms: u64,
    pub long_timer_share: Number,
    pub long_timer_ms: u64,
}

/// A session's input and the state it carries into its next execution.
#[derive(Serialize, Deserialize, Clone)]
#[serde(rename_all = "camelCase")]
pub struct SessionInput {
    pub plan: SessionPlan,
    pub knobs: SessionKnobs,
    pub execution: u64,
    pub iterations: u64,
    pub turns: u64,
    pub idle_wakeups: u64,
    pub spawned: u64,
    pub updates_sent: u64,
    pub closed: bool,
    pub ledger: DeliveryLedger,
}

impl SessionInput {
    /// The input that starts a session from its plan.
    pub fn initial(plan: SessionPlan, knobs: SessionKnobs) -> Self {
        Self {
            plan,
            knobs,
            execution: 1,
            iterations: 0,
            turns: 0,
            idle_wakeups: 0,
            spawned: 0,
            updates_sent: 0,
            closed: false,
            ledger: DeliveryLedger::default(),
        }
    }

    /// The output of a session that has finished in this state.
    pub fn summary(&self) -> SessionSummary {
        SessionSummary {
            id: self.plan.id.clone(),
            executions: self.execution,
            iterations: self.iterations,
            turns: self.turns,
            idle_wakeups: self.idle_wakeups,
            spawned: self.spawned,
            updates_sent: self.updates_sent,
            closed: self.closed,
            ledger: self.ledger.clone(),
        }
    }
}

/// What a finished session returns.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionSummary {
    pub id: String,
    pub executions: u64,
    pub iterations: u64,
    pub turns: u64,
    pub idle_wakeups: u64,
    pub spawned: u64,
    pub updates_sent: u64,
    pub closed: bool,
    pub ledger: DeliveryLedger,
}

/// A message off the session queue: a client's (`from: "client"`, `kind` `prompt` or `close`)
/// or a child's update (`kind: "update"` with `nonce` and `final`).
#[derive(Deserialize)]
pub struct SessionMessage {
    pub from: String,
    pub seq: u64,
    pub kind: String,
    pub nonce: Option<String>,
    #[serde(rename = "final")]
    pub is_final: Option<bool>,
}

impl SessionMessage {
    /// The message's name in the key-value FIFO.
    pub fn label(&self) -> String {
        format!("{}#{}", self.from, self.seq)
    }
}

/// A child's update as the notify activity enqueues it.
#[derive(Serialize)]
pub struct ChildUpdate<'a> {
    pub kind: &'static str,
    pub from: &'a str,
    pub seq: u64,
    pub nonce: String,
    #[serde(rename = "final")]
    pub is_final: bool,
}

/// Input of the `SwarmTurn` activity.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnInput {
    pub session: String,
    pub iteration: u64,
    pub items: Vec<String>,
    pub duration_ms: u64,
    pub before_continue_as_new: bool,
}

/// Output of the `SwarmTurn` activity.
#[derive(Serialize)]
pub struct TurnOutput {
    pub worker: String,
}

/// Input of the `SwarmTool` activity.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolInput {
    pub session: String,
    pub step: String,
    pub duration_ms: u64,
}

/// Input of the `SwarmDigest` sub-orchestration.
#[derive(Serialize, Deserialize)]
pub struct DigestInput {
    pub session: String,
    pub turn: u64,
}

/// Input of the `SwarmRaiseDigest` activity: the digest instance to raise the event on.
#[derive(Serialize, Deserialize)]
pub struct RaiseDigestInput {
    pub instance: String,
    pub turn: u64,
}

/// The data of the event a digest waits for.
#[derive(Serialize)]
pub struct DigestReady {
    pub turn: u64,
}

/// Input of the `SwarmNotifyParent` activity.
#[derive(Serialize, Deserialize)]
pub struct NotifyParentInput {
    pub parent: String,
    pub from: String,
    pub seq: u64,
    #[serde(rename = "final")]
    pub is_final: bool,
}

/// Input of the `SwarmSpawnChild` activity.
#[derive(Serialize, Deserialize)]
pub struct SpawnChildInput {
    pub id: String,
    pub input: SessionInput,
}

/// The session's custom status.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionStatus {
    pub execution: u64,
    pub iterations: u64,
    pub delivered: u64,
    pub children_finished: u64,
    pub pending: u64,
    pub anomalies: u64,
}
