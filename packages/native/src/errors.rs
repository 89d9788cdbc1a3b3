//! Errors crossing the bridge: JavaScript provider failures into duroxide `ProviderError`s, and
//! Rust failures into JavaScript exceptions.

use duroxide::providers::ProviderError;
use napi::bindgen_prelude::{Object, Unknown};
use napi::ValueType;
use napi_derive::napi;

/// What a JavaScript provider's rejection carries so the Rust side keeps its classification:
/// exactly the own properties of `@duro/core`'s `ProviderError`. Any other rejection becomes a
/// permanent error of the called operation.
#[napi(object, object_to_js = false)]
pub struct WireProviderError {
    /// The failed operation, such as `"ack_orchestration_item"`.
    pub operation: String,
    /// What went wrong, without the operation (duroxide's `ProviderError::message`).
    pub detail: String,
    /// Whether trying again can succeed.
    pub retryable: bool,
}

/// Turns the reason of a rejected provider promise into a `ProviderError`. Runs on the
/// JavaScript thread.
pub fn provider_error_from_rejection(operation: &str, reason: Unknown) -> ProviderError {
    if !matches!(reason.get_type(), Ok(ValueType::Object)) {
        return ProviderError::permanent(operation, "the JavaScript provider rejected with a non-object value");
    }
    // SAFETY: the value was just checked to be an object.
    if let Ok(error) = unsafe { reason.cast::<WireProviderError>() } {
        return ProviderError {
            operation: error.operation,
            message: error.detail,
            retryable: error.retryable,
        };
    }
    // SAFETY: as above.
    let description = unsafe { reason.cast::<Object>() }
        .map(|object| {
            let name = object
                .get::<String>("name")
                .ok()
                .flatten()
                .unwrap_or_else(|| "Error".into());
            let message = object.get::<String>("message").ok().flatten().unwrap_or_default();
            format!("{name}: {message}")
        })
        .unwrap_or_else(|_| "an unreadable error".into());
    ProviderError::permanent(
        operation,
        format!("the JavaScript provider threw something that is not a ProviderError: {description}"),
    )
}

/// Turns a synchronous throw (or a return value that is not a promise) into a `ProviderError`.
pub fn provider_error_from_js_throw(operation: &str, thrown: &napi::Error) -> ProviderError {
    ProviderError::permanent(
        operation,
        format!("the JavaScript provider threw synchronously: {}", thrown.reason),
    )
}

/// A JavaScript exception carrying a Rust error's text.
pub fn js_error(message: impl Into<String>) -> napi::Error {
    napi::Error::from_reason(message.into())
}
