//! The scenario catalogue shared with the duro side: `packages/native/scenarios/catalogue.json`,
//! compiled into the addon.

use serde::Deserialize;

const CATALOGUE_JSON: &str = include_str!("../../scenarios/catalogue.json");

#[derive(Deserialize)]
struct Catalogue {
    scenarios: Vec<ScenarioSpec>,
}

/// One scenario: what to start, what the client does next, and what must come out.
#[derive(Deserialize, Clone)]
#[serde(rename_all = "camelCase")]
pub struct ScenarioSpec {
    pub name: String,
    pub orchestration: String,
    pub version: Option<String>,
    /// The orchestration's input as a JSON value.
    pub input: serde_json::Value,
    pub steps: Vec<ClientStep>,
}

/// A client action taken after the start, in order.
#[derive(Deserialize, Clone)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum ClientStep {
    /// Waits until the instance's custom status is `status`.
    WaitForCustomStatus { status: String },
    /// Raises an event whose data is this JSON value.
    RaiseEvent { name: String, data: serde_json::Value },
    /// Enqueues a message whose data is this JSON value.
    EnqueueEvent { queue: String, data: serde_json::Value },
    /// Cancels the instance.
    Cancel { reason: String },
}

/// Every scenario of the catalogue, in its order.
///
/// # Panics
/// When the compiled-in catalogue is not valid, which its tests rule out.
pub fn scenarios() -> Vec<ScenarioSpec> {
    serde_json::from_str::<Catalogue>(CATALOGUE_JSON)
        .expect("scenarios/catalogue.json must match ScenarioSpec")
        .scenarios
}
