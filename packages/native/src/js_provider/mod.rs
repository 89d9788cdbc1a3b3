//! A duroxide `Provider` and `ProviderAdmin` that forwards every call to a JavaScript provider
//! object (`WireProvider`), so the Rust runtime and duroxide's own validations can run against
//! duro's providers.

mod admin_impl;
mod claims;
mod conversions;

pub use conversions::u64_to_js;
mod provider_impl;

use std::sync::Arc;

use crate::wire::provider_calls::WireProvider;

/// duroxide's view of a JavaScript provider.
pub struct JsProvider {
    wire: Arc<WireProvider>,
}

impl JsProvider {
    /// Wraps the object built by `toWireProvider` on the JavaScript side.
    pub fn new(wire: WireProvider) -> Self {
        Self { wire: Arc::new(wire) }
    }
}
