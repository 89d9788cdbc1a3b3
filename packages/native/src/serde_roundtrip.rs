//! duroxide serde as an oracle for duro's codec: decode JSON with the Rust types and encode the
//! value again, so a test can prove that what one side writes the other reads, byte for byte.

use duroxide::providers::WorkItem;
use duroxide::{ErrorDetails, Event};
use napi_derive::napi;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// What duroxide's serde made of a JSON text: exactly one of the two fields is set.
#[napi(object, use_nullable = true)]
pub struct SerdeRoundTrip {
    /// The value decoded and encoded again with serde_json's compact writer.
    pub json: Option<String>,
    /// serde's error text when the JSON does not decode (or, never expected, encode).
    pub error: Option<String>,
}

fn round_trip<T: Serialize + DeserializeOwned>(json: &str) -> SerdeRoundTrip {
    let encoded = serde_json::from_str::<T>(json).and_then(|value| serde_json::to_string(&value));
    match encoded {
        Ok(json) => SerdeRoundTrip {
            json: Some(json),
            error: None,
        },
        Err(error) => SerdeRoundTrip {
            json: None,
            error: Some(error.to_string()),
        },
    }
}

/// Decodes a history event with duroxide's `Event` and encodes it again.
#[napi]
pub fn round_trip_event(json: String) -> SerdeRoundTrip {
    round_trip::<Event>(&json)
}

/// Decodes a queue message with duroxide's `WorkItem` and encodes it again.
#[napi]
pub fn round_trip_work_item(json: String) -> SerdeRoundTrip {
    round_trip::<WorkItem>(&json)
}

/// Decodes error details with duroxide's `ErrorDetails` and encodes them again.
#[napi]
pub fn round_trip_error_details(json: String) -> SerdeRoundTrip {
    round_trip::<ErrorDetails>(&json)
}
