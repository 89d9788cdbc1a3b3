//! What a scenario run returns to JavaScript.

use duroxide::OrchestrationStatus;
use napi_derive::napi;

/// One execution's history, as duroxide serde JSON.
#[napi(object)]
pub struct ScenarioExecution {
    pub execution_id: i64,
    /// One `Event` JSON string per event, in event-id order.
    pub events: Vec<String>,
}

/// Every execution of one instance the scenario ran.
#[napi(object)]
pub struct ScenarioInstance {
    pub instance_id: String,
    pub executions: Vec<ScenarioExecution>,
}

/// How a scenario ended.
#[napi(object, use_nullable = true)]
pub struct ScenarioOutcome {
    /// The catalogue name.
    pub name: String,
    /// The instance the scenario started.
    pub instance_id: String,
    /// `Completed` or `Failed`.
    pub status: String,
    /// The output when it completed.
    pub output: Option<String>,
    /// duroxide's display message of the failure.
    pub error: Option<String>,
    /// The failure's `ErrorDetails` as serde JSON.
    pub error_details: Option<String>,
    /// The last custom status.
    pub custom_status: Option<String>,
    /// The instance and every instance it started, sorted by id.
    pub instances: Vec<ScenarioInstance>,
}

impl ScenarioOutcome {
    /// The outcome of a finished instance, with no histories yet.
    pub fn from_status(name: &str, instance: &str, status: OrchestrationStatus) -> Result<Self, String> {
        let mut outcome = ScenarioOutcome {
            name: name.to_string(),
            instance_id: instance.to_string(),
            status: String::new(),
            output: None,
            error: None,
            error_details: None,
            custom_status: None,
            instances: Vec::new(),
        };
        match status {
            OrchestrationStatus::Completed {
                output, custom_status, ..
            } => {
                outcome.status = "Completed".into();
                outcome.output = Some(output);
                outcome.custom_status = custom_status;
            }
            OrchestrationStatus::Failed {
                details, custom_status, ..
            } => {
                outcome.status = "Failed".into();
                outcome.error = Some(details.display_message());
                outcome.error_details = Some(serde_json::to_string(&details).map_err(|error| error.to_string())?);
                outcome.custom_status = custom_status;
            }
            OrchestrationStatus::Running { .. } | OrchestrationStatus::NotFound => {
                return Err(format!("scenario {name}: {instance} had not finished"));
            }
        }
        Ok(outcome)
    }
}
