//! duroxide's `ProviderFactory` forwarding to a JavaScript factory object.

use std::sync::Arc;
use std::time::Duration;

use duroxide::provider_validations::ProviderFactory;
use duroxide::providers::Provider;
use napi::bindgen_prelude::PromiseRaw;
use napi::threadsafe_function::ThreadsafeFunction;
use napi::Status;
use napi_derive::napi;

use crate::js_provider::JsProvider;
use crate::wire::js_function::call_js;
use crate::wire::provider_calls::WireProvider;

/// A JavaScript provider factory as duroxide's validations use it. `@duro/native`'s
/// `RustValidationRun` builds one from a `@duro/core/validation` `ProviderFactory`.
#[napi(object, object_to_js = false)]
pub struct WireProviderFactory {
    /// A provider on a fresh, empty store.
    pub create_provider: ThreadsafeFunction<(), PromiseRaw<'static, WireProvider>, (), Status, false, true>,
    /// Lock timeout the validations use, in milliseconds.
    pub lock_timeout_ms: u32,
    /// How soon a short poll with no work must return, in milliseconds.
    pub short_poll_threshold_ms: u32,
    /// Makes every stored history row of the instance undecodable.
    pub corrupt_instance_history: ThreadsafeFunction<String, PromiseRaw<'static, ()>, String, Status, false, true>,
    /// The highest attempt count among the instance's orchestrator-queue messages.
    pub get_max_attempt_count: ThreadsafeFunction<String, PromiseRaw<'static, u32>, String, Status, false, true>,
}

/// The Rust side of a `WireProviderFactory`. A failing hook panics, which fails the validation
/// with the hook's error, exactly as duroxide's own factories do.
pub struct JsProviderFactory {
    wire: WireProviderFactory,
}

impl JsProviderFactory {
    pub fn new(wire: WireProviderFactory) -> Self {
        Self { wire }
    }
}

#[async_trait::async_trait]
impl ProviderFactory for JsProviderFactory {
    async fn create_provider(&self) -> Arc<dyn Provider> {
        match call_js(&self.wire.create_provider, "create_provider", ()).await {
            Ok(wire) => Arc::new(JsProvider::new(wire)),
            Err(error) => panic!("the JavaScript factory could not create a provider: {error}"),
        }
    }

    fn lock_timeout(&self) -> Duration {
        Duration::from_millis(self.wire.lock_timeout_ms.into())
    }

    fn short_poll_threshold(&self) -> Duration {
        Duration::from_millis(self.wire.short_poll_threshold_ms.into())
    }

    async fn corrupt_instance_history(&self, instance: &str) {
        let corrupted = call_js(
            &self.wire.corrupt_instance_history,
            "corrupt_instance_history",
            instance.to_string(),
        );
        if let Err(error) = corrupted.await {
            panic!("the JavaScript factory could not corrupt the history of {instance}: {error}");
        }
    }

    async fn get_max_attempt_count(&self, instance: &str) -> u32 {
        let count = call_js(
            &self.wire.get_max_attempt_count,
            "get_max_attempt_count",
            instance.to_string(),
        );
        count.await.unwrap_or_else(|error| {
            panic!("the JavaScript factory could not read the attempt count of {instance}: {error}")
        })
    }
}
