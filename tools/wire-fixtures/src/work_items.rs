//! One fixture per `WorkItem` variant, plus one for each optional field that changes the bytes.

use duroxide::providers::WorkItem;

use crate::samples::*;
use crate::Fixture;

fn start(version: Option<&str>, parent: ParentLink) -> WorkItem {
    let (parent_instance, parent_id, parent_execution_id) = parent_fields(parent);
    WorkItem::StartOrchestration {
        instance: text(if parent.is_some() {
            CHILD_INSTANCE
        } else {
            INSTANCE
        }),
        orchestration: text("Checkout"),
        input: text(INPUT),
        version: version.map(text),
        parent_instance,
        parent_id,
        parent_execution_id,
        execution_id: 1,
    }
}

fn continue_as_new(
    version: Option<&str>,
    parent: ParentLink,
    carry_forward_events: Vec<(String, String)>,
    initial_custom_status: Option<&str>,
) -> WorkItem {
    let (parent_instance, parent_id, parent_execution_id) = parent_fields(parent);
    WorkItem::ContinueAsNew {
        instance: text(INSTANCE),
        orchestration: text("Checkout"),
        input: text(INPUT),
        version: version.map(text),
        parent_instance,
        parent_id,
        parent_execution_id,
        carry_forward_events,
        initial_custom_status: initial_custom_status.map(text),
    }
}

fn execute(session_id: Option<&str>, tag: Option<&str>) -> WorkItem {
    WorkItem::ActivityExecute {
        instance: text(INSTANCE),
        execution_id: EXECUTION_ID,
        id: 2,
        name: text("Charge"),
        input: text(INPUT),
        session_id: session_id.map(text),
        tag: tag.map(text),
    }
}

pub fn fixtures() -> Vec<Fixture> {
    vec![
        // Starting and continuing executions
        Fixture::new("StartOrchestration", &start(None, None)),
        Fixture::new(
            "StartOrchestration.with-version",
            &start(Some("1.2.0"), None),
        ),
        Fixture::new("StartOrchestration.child", &start(Some("1.2.0"), PARENT)),
        Fixture::new(
            "ContinueAsNew",
            &continue_as_new(None, None, Vec::new(), None),
        ),
        Fixture::new(
            "ContinueAsNew.carry-forward",
            &continue_as_new(
                Some("1.2.0"),
                None,
                carried(),
                Some(r#"{"stage":"waiting"}"#),
            ),
        ),
        Fixture::new(
            "ContinueAsNew.child",
            &continue_as_new(Some("1.2.0"), PARENT, Vec::new(), None),
        ),
        Fixture::new(
            "ContinueAsNew.child-carry-forward",
            &continue_as_new(None, PARENT, carried(), Some("half way")),
        ),
        // Activities
        Fixture::new("ActivityExecute", &execute(None, None)),
        Fixture::new(
            "ActivityExecute.with-session",
            &execute(Some("cart-7"), None),
        ),
        Fixture::new("ActivityExecute.with-tag", &execute(None, Some("gpu"))),
        Fixture::new(
            "ActivityExecute.with-session-and-tag",
            &execute(Some("cart-7"), Some("gpu")),
        ),
        Fixture::new(
            "ActivityCompleted",
            &WorkItem::ActivityCompleted {
                instance: text(INSTANCE),
                execution_id: EXECUTION_ID,
                id: 2,
                result: text(RESULT),
            },
        ),
        Fixture::new(
            "ActivityFailed",
            &WorkItem::ActivityFailed {
                instance: text(INSTANCE),
                execution_id: EXECUTION_ID,
                id: 2,
                details: activity_error(),
            },
        ),
        Fixture::new(
            "ActivityFailed.poison",
            &WorkItem::ActivityFailed {
                instance: text(INSTANCE),
                execution_id: EXECUTION_ID,
                id: 3,
                details: poisoned_activity_error(),
            },
        ),
        // Timers
        Fixture::new(
            "TimerFired",
            &WorkItem::TimerFired {
                instance: text(INSTANCE),
                execution_id: EXECUTION_ID,
                id: 2,
                fire_at_ms: FIRE_AT_MS,
            },
        ),
        // Events from clients
        Fixture::new(
            "ExternalRaised",
            &WorkItem::ExternalRaised {
                instance: text(INSTANCE),
                name: text("approval"),
                data: text(r#"{"ok":true}"#),
            },
        ),
        Fixture::new(
            "ExternalRaised.escapes",
            &WorkItem::ExternalRaised {
                instance: text(INSTANCE),
                name: text(ESCAPES),
                data: text(ESCAPES),
            },
        ),
        Fixture::new(
            "QueueMessage",
            &WorkItem::QueueMessage {
                instance: text(INSTANCE),
                name: text("inbox"),
                data: text("hello"),
            },
        ),
        Fixture::new(
            "CancelInstance",
            &WorkItem::CancelInstance {
                instance: text(INSTANCE),
                reason: text("user requested"),
            },
        ),
        // Sub-orchestration results, routed to the parent
        Fixture::new(
            "SubOrchCompleted",
            &WorkItem::SubOrchCompleted {
                parent_instance: text(PARENT_INSTANCE),
                parent_execution_id: 1,
                parent_id: 4,
                result: text(RESULT),
            },
        ),
        Fixture::new(
            "SubOrchFailed",
            &WorkItem::SubOrchFailed {
                parent_instance: text(PARENT_INSTANCE),
                parent_execution_id: 1,
                parent_id: 4,
                details: activity_error(),
            },
        ),
    ]
}
