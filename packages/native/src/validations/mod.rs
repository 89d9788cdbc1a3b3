//! duroxide's own provider validations, listed and run one at a time against a JavaScript
//! provider factory.

mod catalogue;
mod js_factory;

use napi_derive::napi;

use crate::errors::js_error;
use catalogue::{PollingRequirement, VALIDATIONS};
use js_factory::{JsProviderFactory, WireProviderFactory};

/// One validation of duroxide's provider suite.
#[napi(object, use_nullable = true)]
pub struct RustProviderValidation {
    /// The name `runProviderValidation` takes: `module::function`, plus `@stamp` when stamped.
    pub id: String,
    /// The Rust module, such as `instance_locking`.
    pub module: String,
    /// The Rust function, such as `test_exclusive_instance_lock`.
    pub function: String,
    /// The `duroxide_version` stamp the validation runs with, when it takes one.
    pub stamp: Option<String>,
    /// Which providers it applies to.
    pub polling: PollingRequirement,
}

/// Every validation of duroxide's provider suite, in duroxide's module and file order.
#[napi]
pub fn list_provider_validations() -> Vec<RustProviderValidation> {
    VALIDATIONS
        .iter()
        .map(|validation| RustProviderValidation {
            id: validation.id(),
            module: validation.module.to_string(),
            function: validation.function.to_string(),
            stamp: validation.stamp.map(str::to_string),
            polling: validation.polling,
        })
        .collect()
}

/// Runs one validation (by its `id`) against providers made by `factory`. Resolves when it
/// passed.
///
/// @throws when the validation fails, with duroxide's assertion message, or when no validation
///   has that id.
#[napi]
pub async fn run_provider_validation(id: String, factory: WireProviderFactory) -> napi::Result<()> {
    let validation = VALIDATIONS
        .iter()
        .find(|validation| validation.id() == id)
        .ok_or_else(|| js_error(format!("duroxide has no provider validation named {id}")))?;
    let factory = JsProviderFactory::new(factory);
    let run = validation.run;
    // The validation runs in its own task so that its assertion panic is caught here.
    let outcome = tokio::spawn(async move { run(&factory).await }).await;
    match outcome {
        Ok(()) => Ok(()),
        Err(error) if error.is_panic() => Err(js_error(format!("{id} failed: {}", panic_text(error.into_panic())))),
        Err(error) => Err(js_error(format!("{id} did not finish: {error}"))),
    }
}

fn panic_text(payload: Box<dyn std::any::Any + Send>) -> String {
    match payload.downcast::<String>() {
        Ok(text) => *text,
        Err(payload) => payload
            .downcast_ref::<&str>()
            .map_or_else(|| "a panic without a message".to_string(), |text| (*text).to_string()),
    }
}
