//! Fixed values shared by every fixture, so the files never change between runs and the
//! TypeScript tests can rebuild the same values by hand.

use duroxide::{AppErrorKind, ErrorDetails, PoisonMessageType};

pub const INSTANCE: &str = "order-7";
pub const EXECUTION_ID: u64 = 2;
pub const PARENT_INSTANCE: &str = "checkout-1";
pub const CHILD_INSTANCE: &str = "checkout-1::sub::4";
pub const TIMESTAMP_MS: u64 = 1_767_225_600_000;
pub const FIRE_AT_MS: u64 = 1_767_225_630_000;
pub const INPUT: &str = r#"{"sku":"A-1","qty":2}"#;
pub const RESULT: &str = r#"{"charged":true}"#;

/// Every character class whose escaping could differ between JSON writers: quotes, backslash,
/// slash, the short escapes, other control characters, DEL, the two line separators JavaScript
/// once treated specially, non-ASCII text, an astral-plane emoji and an HTML end tag.
pub const ESCAPES: &str =
    "quote \" backslash \\ slash / \u{8}\u{c}\n\r\t \u{0}\u{1}\u{1f} del \u{7f} \
    separators \u{2028}\u{2029} accents é 漢字 emoji 😀 html </script>";

/// The largest integer a JavaScript number holds exactly; the codec's upper bound for u64 fields.
pub const MAX_SAFE_INTEGER: u64 = 9_007_199_254_740_991;

/// An owned copy of a fixed text.
pub fn text(value: &str) -> String {
    value.to_string()
}

/// The unread queue messages carried across a continue-as-new: `(name, data)` pairs.
pub fn carried() -> Vec<(String, String)> {
    vec![
        (text("approvals"), text(r#"{"by":"ana"}"#)),
        (text("approvals"), text("raw text")),
    ]
}

/// The parent link of a child orchestration: parent instance, the parent's
/// `SubOrchestrationScheduled` event id, and the parent's execution id.
pub type ParentLink = Option<(&'static str, u64, u64)>;

/// The parent of every child in the fixtures.
pub const PARENT: ParentLink = Some((PARENT_INSTANCE, 4, 1));

/// The three optional parent fields of a start, in the form the Rust types hold them.
pub fn parent_fields(parent: ParentLink) -> (Option<String>, Option<u64>, Option<u64>) {
    match parent {
        Some((instance, id, execution_id)) => {
            (Some(instance.to_string()), Some(id), Some(execution_id))
        }
        None => (None, None, None),
    }
}

/// The `ErrorDetails` used where an event or work item carries one.
pub fn activity_error() -> ErrorDetails {
    ErrorDetails::Application {
        kind: AppErrorKind::ActivityFailed,
        message: "card declined".to_string(),
        retryable: false,
    }
}

/// The `ErrorDetails` of a poisoned activity, as the runtime writes it.
pub fn poisoned_activity_error() -> ErrorDetails {
    ErrorDetails::Poison {
        attempt_count: 11,
        max_attempts: 10,
        message_type: PoisonMessageType::Activity {
            instance: INSTANCE.to_string(),
            execution_id: EXECUTION_ID,
            activity_name: "Charge".to_string(),
            activity_id: 3,
        },
        message: format!(
            r#"{{"ActivityExecute":{{"instance":"{INSTANCE}","execution_id":{EXECUTION_ID},"id":3,"name":"Charge","input":"{{}}"}}}}"#
        ),
    }
}

/// The `ErrorDetails` the runtime writes when an instance's history cannot be read.
pub fn failed_deserialization_error() -> ErrorDetails {
    ErrorDetails::Poison {
        attempt_count: 11,
        max_attempts: 10,
        message_type: PoisonMessageType::FailedDeserialization {
            instance: INSTANCE.to_string(),
            execution_id: EXECUTION_ID,
            error: "unknown variant `Foo`".to_string(),
        },
        message: String::new(),
    }
}
