//! What duroxide's serde accepts on read, and what it writes back: each case is a hand-written
//! input text, decoded by the real derive and, when accepted, serialized again. The TypeScript
//! codec must accept exactly the accepted inputs and write the same bytes back, and must reject
//! the rejected ones; the few cases where it deliberately differs are listed in its tests.

use duroxide::providers::WorkItem;
use duroxide::{ErrorDetails, Event};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::Fixture;

const HEADER: &str = r#""event_id":4,"source_event_id":null,"instance_id":"i","execution_id":1,"timestamp_ms":5,"duroxide_version":"0.1.30""#;

fn event(body: &str) -> String {
    format!("{{{HEADER},{body}}}")
}

fn case<T: Serialize + DeserializeOwned>(target: &str, name: &str, input: String) -> Fixture {
    let outcome = match serde_json::from_str::<T>(&input) {
        Ok(value) => serde_json::json!({
            "target": target,
            "input": input,
            "output": serde_json::to_string(&value).expect("duroxide types always serialize"),
        }),
        Err(error) => {
            serde_json::json!({ "target": target, "input": input, "error": error.to_string() })
        }
    };
    Fixture::text(
        name,
        serde_json::to_string_pretty(&outcome).expect("JSON values serialize"),
    )
}

fn events() -> Vec<Fixture> {
    let case = |name: &str, input: String| case::<Event>("Event", name, input);
    vec![
        case("event.key-value-set-without-last-updated", event(r#""type":"KeyValueSet","key":"k","value":"v""#)),
        case("event.key-value-set-null-last-updated", event(r#""type":"KeyValueSet","key":"k","value":"v","last_updated_at_ms":null"#)),
        case("event.started-without-parent-fields", event(r#""type":"OrchestrationStarted","name":"O","version":"1.0.0","input":"""#)),
        case(
            "event.started-null-options",
            event(r#""type":"OrchestrationStarted","name":"O","version":"1.0.0","input":"","parent_instance":null,"parent_id":null,"parent_execution_id":null,"carry_forward_events":null,"initial_custom_status":null"#),
        ),
        case("event.scheduled-null-session-and-tag", event(r#""type":"ActivityScheduled","name":"A","input":"","session_id":null,"tag":null"#)),
        case("event.custom-status-absent", event(r#""type":"CustomStatusUpdated""#)),
        case(
            "event.source-event-id-absent",
            r#"{"event_id":1,"instance_id":"i","execution_id":1,"timestamp_ms":5,"duroxide_version":"0.1.30","type":"TimerFired","fire_at_ms":9}"#.to_string(),
        ),
        case(
            "event.type-first",
            r#"{"type":"TimerFired","fire_at_ms":9,"timestamp_ms":5,"execution_id":1,"instance_id":"i","source_event_id":3,"event_id":4,"duroxide_version":"0.1.30"}"#.to_string(),
        ),
        case("event.unknown-fields", event(r#""shard":3,"type":"ActivityCompleted","result":"r","extra":[1]"#)),
        case("event.unit-variant-with-fields", event(r#""type":"KeyValuesCleared","key":"ignored""#)),
        case("event.unknown-type", event(r#""type":"Foo","name":"x""#)),
        case("event.rust-variant-name-as-type", event(r#""type":"QueueSubscribed","name":"inbox""#)),
        case("event.missing-type", event(r#""name":"x""#)),
        case("event.missing-field", event(r#""type":"ActivityScheduled","input":"""#)),
        case("event.missing-header-field", r#"{"event_id":1,"source_event_id":null,"execution_id":1,"timestamp_ms":5,"duroxide_version":"0.1.30","type":"KeyValuesCleared"}"#.to_string()),
        case("event.null-required-field", event(r#""type":"ActivityCompleted","result":null"#)),
        case("event.number-as-string", event(r#""type":"ActivityCompleted","result":5"#)),
        case("event.string-as-integer", event(r#""type":"TimerFired","fire_at_ms":"9""#)),
        case("event.negative-integer", event(r#""type":"TimerFired","fire_at_ms":-1"#)),
        case("event.fractional-integer", event(r#""type":"TimerFired","fire_at_ms":1.5"#)),
        case("event.integer-written-as-float", event(r#""type":"TimerFired","fire_at_ms":9.0"#)),
        case("event.integer-above-max-safe", event(r#""type":"TimerFired","fire_at_ms":9007199254740993"#)),
        case("event.integer-above-u64", event(r#""type":"TimerFired","fire_at_ms":18446744073709551616"#)),
        case(
            "event.carried-pair-of-three",
            event(r#""type":"OrchestrationStarted","name":"O","version":"1.0.0","input":"","parent_instance":null,"parent_id":null,"carry_forward_events":[["a","b","c"]]"#),
        ),
        case(
            "event.carried-pair-not-strings",
            event(r#""type":"OrchestrationStarted","name":"O","version":"1.0.0","input":"","parent_instance":null,"parent_id":null,"carry_forward_events":[["a",1]]"#),
        ),
        case("event.duplicate-field", event(r#""type":"ActivityCompleted","result":"a","result":"b""#)),
        case("event.lone-surrogate", event(r#""type":"ActivityCompleted","result":"\ud800""#)),
        case("event.array", "[1,2]".to_string()),
    ]
}

fn work_items() -> Vec<Fixture> {
    let case = |name: &str, input: &str| case::<WorkItem>("WorkItem", name, input.to_string());
    vec![
        case(
            "work-item.continue-as-new-without-carry-forward",
            r#"{"ContinueAsNew":{"instance":"i","orchestration":"O","input":"x","version":"1.0.0"}}"#,
        ),
        case(
            "work-item.continue-as-new-null-carry-forward",
            r#"{"ContinueAsNew":{"instance":"i","orchestration":"O","input":"x","version":null,"carry_forward_events":null}}"#,
        ),
        case(
            "work-item.start-without-version-and-parent",
            r#"{"StartOrchestration":{"instance":"i","orchestration":"O","input":"","execution_id":1}}"#,
        ),
        case(
            "work-item.start-null-parent-execution-id",
            r#"{"StartOrchestration":{"instance":"i","orchestration":"O","input":"","version":null,"parent_instance":null,"parent_id":null,"parent_execution_id":null,"execution_id":1}}"#,
        ),
        case(
            "work-item.execute-null-session-and-tag",
            r#"{"ActivityExecute":{"instance":"i","execution_id":1,"id":2,"name":"A","input":"","session_id":null,"tag":null}}"#,
        ),
        case(
            "work-item.jsonb-rendering",
            r#"{"ActivityExecute": {"id": 2, "tag": "t", "name": "A", "input": "{}", "instance": "i", "session_id": "s", "execution_id": 1}}"#,
        ),
        case(
            "work-item.unknown-fields",
            r#"{"CancelInstance":{"instance":"i","reason":"r","requested_by":"ops"}}"#,
        ),
        case("work-item.unknown-variant", r#"{"Foo":{"instance":"i"}}"#),
        case(
            "work-item.two-variants",
            r#"{"CancelInstance":{"instance":"i","reason":"r"},"QueueMessage":{"instance":"i","name":"n","data":"d"}}"#,
        ),
        case("work-item.no-variant", "{}"),
        case("work-item.bare-variant-name", r#""CancelInstance""#),
        case(
            "work-item.fields-as-array",
            r#"{"CancelInstance":["i","r"]}"#,
        ),
        case(
            "work-item.missing-field",
            r#"{"TimerFired":{"instance":"i","id":2,"fire_at_ms":9}}"#,
        ),
        case(
            "work-item.negative-integer",
            r#"{"TimerFired":{"instance":"i","execution_id":1,"id":-2,"fire_at_ms":9}}"#,
        ),
    ]
}

fn error_details() -> Vec<Fixture> {
    let case =
        |name: &str, input: &str| case::<ErrorDetails>("ErrorDetails", name, input.to_string());
    vec![
        case(
            "error-details.unit-kind-as-null-object",
            r#"{"Application":{"kind":{"Panicked":null},"message":"m","retryable":false}}"#,
        ),
        case(
            "error-details.unit-kind-with-fields",
            r#"{"Application":{"kind":{"Panicked":{}},"message":"m","retryable":false}}"#,
        ),
        case(
            "error-details.configuration-message-absent",
            r#"{"Configuration":{"kind":"Nondeterminism","resource":"O"}}"#,
        ),
        case(
            "error-details.cancelled-as-bare-name",
            r#"{"Application":{"kind":"Cancelled","message":"","retryable":false}}"#,
        ),
        case(
            "error-details.unknown-application-kind",
            r#"{"Application":{"kind":"Foo","message":"","retryable":false}}"#,
        ),
        case(
            "error-details.unknown-configuration-kind",
            r#"{"Configuration":{"kind":"LimitExceeded","resource":"O","message":null}}"#,
        ),
        case(
            "error-details.unknown-variant",
            r#"{"Fatal":{"message":"m"}}"#,
        ),
        case(
            "error-details.attempt-count-at-u32-max",
            r#"{"Poison":{"attempt_count":4294967295,"max_attempts":10,"message_type":{"Orchestration":{"instance":"i","execution_id":1}},"message":""}}"#,
        ),
        case(
            "error-details.attempt-count-above-u32",
            r#"{"Poison":{"attempt_count":4294967296,"max_attempts":10,"message_type":{"Orchestration":{"instance":"i","execution_id":1}},"message":""}}"#,
        ),
        case(
            "error-details.unknown-poison-message-type",
            r#"{"Poison":{"attempt_count":1,"max_attempts":10,"message_type":{"Timer":{"instance":"i"}},"message":""}}"#,
        ),
        case(
            "error-details.retryable-as-string",
            r#"{"Infrastructure":{"operation":"o","message":"m","retryable":"yes"}}"#,
        ),
        case(
            "error-details.unknown-fields",
            r#"{"Infrastructure":{"operation":"o","message":"m","retryable":true,"code":7}}"#,
        ),
    ]
}

pub fn fixtures() -> Vec<Fixture> {
    let mut all = events();
    all.extend(work_items());
    all.extend(error_details());
    all
}
