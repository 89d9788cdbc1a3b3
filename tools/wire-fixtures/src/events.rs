//! One fixture per `EventKind` variant, plus one for each optional field that changes the
//! bytes, the header quirks older runtimes wrote, and the string/integer edge cases.

use duroxide::providers::current_build_version;
use duroxide::{Event, EventKind};

use crate::samples::*;
use crate::Fixture;

fn event(event_id: u64, source_event_id: Option<u64>, kind: EventKind) -> Event {
    Event {
        event_id,
        source_event_id,
        instance_id: INSTANCE.to_string(),
        execution_id: EXECUTION_ID,
        timestamp_ms: TIMESTAMP_MS,
        duroxide_version: current_build_version().to_string(),
        kind,
    }
}

fn started(
    parent: ParentLink,
    carry_forward_events: Option<Vec<(String, String)>>,
    initial_custom_status: Option<&str>,
) -> EventKind {
    let (parent_instance, parent_id, parent_execution_id) = parent_fields(parent);
    EventKind::OrchestrationStarted {
        name: "Checkout".to_string(),
        version: "1.2.0".to_string(),
        input: INPUT.to_string(),
        parent_instance,
        parent_id,
        parent_execution_id,
        carry_forward_events,
        initial_custom_status: initial_custom_status.map(str::to_string),
    }
}

fn scheduled(session_id: Option<&str>, tag: Option<&str>) -> EventKind {
    EventKind::ActivityScheduled {
        name: "Charge".to_string(),
        input: INPUT.to_string(),
        session_id: session_id.map(str::to_string),
        tag: tag.map(str::to_string),
    }
}

pub fn fixtures() -> Vec<Fixture> {
    let mut legacy_failure = event(
        5,
        None,
        EventKind::OrchestrationFailed {
            details: activity_error(),
        },
    );
    legacy_failure.instance_id = String::new();
    legacy_failure.execution_id = 0;
    let corrupted_history_failure = event(
        99_999,
        None,
        EventKind::OrchestrationFailed {
            details: failed_deserialization_error(),
        },
    );

    vec![
        // Orchestration lifecycle
        Fixture::new(
            "OrchestrationStarted",
            &event(1, None, started(None, None, None)),
        ),
        Fixture::new(
            "OrchestrationStarted.child",
            &event(1, None, started(PARENT, None, None)),
        ),
        Fixture::new(
            "OrchestrationStarted.continued-as-new",
            &event(
                1,
                None,
                started(None, Some(carried()), Some(r#"{"stage":"waiting"}"#)),
            ),
        ),
        Fixture::new(
            "OrchestrationStarted.empty-carry-forward",
            &event(1, None, started(None, Some(Vec::new()), None)),
        ),
        Fixture::new(
            "OrchestrationStarted.child-continued-as-new",
            &event(1, None, started(PARENT, Some(carried()), Some("half way"))),
        ),
        Fixture::new(
            "OrchestrationCompleted",
            &event(
                9,
                None,
                EventKind::OrchestrationCompleted {
                    output: text(RESULT),
                },
            ),
        ),
        Fixture::new(
            "OrchestrationFailed",
            &event(
                9,
                None,
                EventKind::OrchestrationFailed {
                    details: activity_error(),
                },
            ),
        ),
        // duroxide 0.1.26 wrote most failures with an empty instance id and execution 0.
        Fixture::new("OrchestrationFailed.legacy-empty-header", &legacy_failure),
        // The runtime writes the failure of an unreadable history with the sentinel id 99999.
        Fixture::new(
            "OrchestrationFailed.sentinel-event-id",
            &corrupted_history_failure,
        ),
        Fixture::new(
            "OrchestrationContinuedAsNew",
            &event(
                9,
                None,
                EventKind::OrchestrationContinuedAsNew { input: text(INPUT) },
            ),
        ),
        Fixture::new(
            "OrchestrationCancelRequested",
            &event(
                6,
                None,
                EventKind::OrchestrationCancelRequested {
                    reason: text("user requested"),
                },
            ),
        ),
        // Activities
        Fixture::new("ActivityScheduled", &event(2, None, scheduled(None, None))),
        Fixture::new(
            "ActivityScheduled.with-session",
            &event(2, None, scheduled(Some("cart-7"), None)),
        ),
        Fixture::new(
            "ActivityScheduled.with-tag",
            &event(2, None, scheduled(None, Some("gpu"))),
        ),
        Fixture::new(
            "ActivityScheduled.with-session-and-tag",
            &event(2, None, scheduled(Some("cart-7"), Some("gpu"))),
        ),
        Fixture::new(
            "ActivityCompleted",
            &event(
                3,
                Some(2),
                EventKind::ActivityCompleted {
                    result: text(RESULT),
                },
            ),
        ),
        Fixture::new(
            "ActivityFailed",
            &event(
                3,
                Some(2),
                EventKind::ActivityFailed {
                    details: activity_error(),
                },
            ),
        ),
        Fixture::new(
            "ActivityFailed.poison",
            &event(
                3,
                Some(2),
                EventKind::ActivityFailed {
                    details: poisoned_activity_error(),
                },
            ),
        ),
        Fixture::new(
            "ActivityCancelRequested",
            &event(
                4,
                Some(2),
                EventKind::ActivityCancelRequested {
                    reason: text("dropped_future"),
                },
            ),
        ),
        // Timers
        Fixture::new(
            "TimerCreated",
            &event(
                2,
                None,
                EventKind::TimerCreated {
                    fire_at_ms: FIRE_AT_MS,
                },
            ),
        ),
        Fixture::new(
            "TimerCreated.max-safe-integer",
            &event(
                2,
                None,
                EventKind::TimerCreated {
                    fire_at_ms: MAX_SAFE_INTEGER,
                },
            ),
        ),
        Fixture::new(
            "TimerFired",
            &event(
                3,
                Some(2),
                EventKind::TimerFired {
                    fire_at_ms: FIRE_AT_MS,
                },
            ),
        ),
        // Positional external events
        Fixture::new(
            "ExternalSubscribed",
            &event(
                2,
                None,
                EventKind::ExternalSubscribed {
                    name: text("approval"),
                },
            ),
        ),
        Fixture::new(
            "ExternalEvent",
            &event(
                3,
                None,
                EventKind::ExternalEvent {
                    name: text("approval"),
                    data: text(r#"{"ok":true}"#),
                },
            ),
        ),
        Fixture::new(
            "ExternalEvent.escapes",
            &event(
                3,
                None,
                EventKind::ExternalEvent {
                    name: text(ESCAPES),
                    data: text(ESCAPES),
                },
            ),
        ),
        Fixture::new(
            "ExternalSubscribedCancelled",
            &event(
                4,
                Some(2),
                EventKind::ExternalSubscribedCancelled {
                    reason: text("dropped_future"),
                },
            ),
        ),
        // Persistent queues (legacy wire tags)
        Fixture::new(
            "QueueSubscribed",
            &event(
                2,
                None,
                EventKind::QueueSubscribed {
                    name: text("inbox"),
                },
            ),
        ),
        Fixture::new(
            "QueueEventDelivered",
            &event(
                3,
                None,
                EventKind::QueueEventDelivered {
                    name: text("inbox"),
                    data: text("hello"),
                },
            ),
        ),
        Fixture::new(
            "QueueSubscriptionCancelled",
            &event(
                4,
                Some(2),
                EventKind::QueueSubscriptionCancelled {
                    reason: text("orchestration_terminal"),
                },
            ),
        ),
        // Sub-orchestrations and detached starts
        Fixture::new(
            "OrchestrationChained",
            &event(
                2,
                None,
                EventKind::OrchestrationChained {
                    name: text("Audit"),
                    instance: text("audit-7"),
                    input: text(INPUT),
                },
            ),
        ),
        Fixture::new(
            "SubOrchestrationScheduled",
            &event(
                4,
                None,
                EventKind::SubOrchestrationScheduled {
                    name: text("Ship"),
                    instance: text("sub::4"),
                    input: text(INPUT),
                },
            ),
        ),
        Fixture::new(
            "SubOrchestrationCompleted",
            &event(
                5,
                Some(4),
                EventKind::SubOrchestrationCompleted {
                    result: text(RESULT),
                },
            ),
        ),
        Fixture::new(
            "SubOrchestrationFailed",
            &event(
                5,
                Some(4),
                EventKind::SubOrchestrationFailed {
                    details: activity_error(),
                },
            ),
        ),
        Fixture::new(
            "SubOrchestrationCancelRequested",
            &event(
                6,
                Some(4),
                EventKind::SubOrchestrationCancelRequested {
                    reason: text("dropped_future"),
                },
            ),
        ),
        // Custom status
        Fixture::new(
            "CustomStatusUpdated",
            &event(
                2,
                None,
                EventKind::CustomStatusUpdated {
                    status: Some(text(r#"{"stage":"paid"}"#)),
                },
            ),
        ),
        Fixture::new(
            "CustomStatusUpdated.cleared",
            &event(3, None, EventKind::CustomStatusUpdated { status: None }),
        ),
        Fixture::new(
            "CustomStatusUpdated.escapes",
            &event(
                2,
                None,
                EventKind::CustomStatusUpdated {
                    status: Some(text(ESCAPES)),
                },
            ),
        ),
        // Key-value store
        Fixture::new(
            "KeyValueSet",
            &event(
                2,
                None,
                EventKind::KeyValueSet {
                    key: text("cart"),
                    value: text(r#"["A-1"]"#),
                    last_updated_at_ms: TIMESTAMP_MS,
                },
            ),
        ),
        Fixture::new(
            "KeyValueCleared",
            &event(3, None, EventKind::KeyValueCleared { key: text("cart") }),
        ),
        Fixture::new(
            "KeyValuesCleared",
            &event(4, None, EventKind::KeyValuesCleared),
        ),
    ]
}
