//! One fixture per `ErrorDetails` shape: every variant, every `AppErrorKind`, every
//! `PoisonMessageType`, and `Configuration` with and without its optional message.

use duroxide::{AppErrorKind, ConfigErrorKind, ErrorDetails, PoisonMessageType};

use crate::samples::{
    activity_error, failed_deserialization_error, poisoned_activity_error, EXECUTION_ID, INSTANCE,
};
use crate::Fixture;

pub fn fixtures() -> Vec<Fixture> {
    let application =
        |kind: AppErrorKind, message: &str, retryable: bool| ErrorDetails::Application {
            kind,
            message: message.to_string(),
            retryable,
        };
    let poison = |message_type: PoisonMessageType, message: &str| ErrorDetails::Poison {
        attempt_count: 11,
        max_attempts: 10,
        message_type,
        message: message.to_string(),
    };
    vec![
        Fixture::new(
            "Infrastructure",
            &ErrorDetails::Infrastructure {
                operation: "ack_orchestration_item".to_string(),
                message: "Database error: connection reset".to_string(),
                retryable: true,
            },
        ),
        Fixture::new(
            "Configuration.Nondeterminism",
            &ErrorDetails::Configuration {
                kind: ConfigErrorKind::Nondeterminism,
                resource: "Checkout".to_string(),
                message: Some("expected ActivityScheduled, found TimerCreated".to_string()),
            },
        ),
        Fixture::new(
            "Configuration.Nondeterminism.without-message",
            &ErrorDetails::Configuration {
                kind: ConfigErrorKind::Nondeterminism,
                resource: "Checkout".to_string(),
                message: None,
            },
        ),
        Fixture::new("Application.ActivityFailed", &activity_error()),
        Fixture::new(
            "Application.ActivityFailed.retryable",
            &application(AppErrorKind::ActivityFailed, "gateway timeout", true),
        ),
        Fixture::new(
            "Application.OrchestrationFailed",
            &application(
                AppErrorKind::OrchestrationFailed,
                "Error: out of stock",
                false,
            ),
        ),
        Fixture::new(
            "Application.Panicked",
            &application(AppErrorKind::Panicked, "index out of bounds", false),
        ),
        Fixture::new(
            "Application.Cancelled",
            &application(
                AppErrorKind::Cancelled {
                    reason: "user requested".to_string(),
                },
                "",
                false,
            ),
        ),
        Fixture::new(
            "Poison.Orchestration",
            &poison(
                PoisonMessageType::Orchestration {
                    instance: INSTANCE.to_string(),
                    execution_id: EXECUTION_ID,
                },
                "[]",
            ),
        ),
        Fixture::new("Poison.Activity", &poisoned_activity_error()),
        Fixture::new(
            "Poison.FailedDeserialization",
            &failed_deserialization_error(),
        ),
    ]
}
