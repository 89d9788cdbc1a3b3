//! The Rust side of the scenario catalogue: one orchestration per scenario (registered under
//! the name the catalogue gives), grouped by feature, plus the activities they use. Every
//! payload (inputs, outputs, event data) is JSON text, written as duro writes it.

mod activities;
mod continue_as_new;
mod events;
mod failures;
mod races;
mod state;
mod sub_orchestrations;
mod versioning;

use std::future::Future;

use duroxide::runtime::registry::{ActivityRegistry, ActivityRegistryBuilder, OrchestrationRegistryBuilder};
use duroxide::{ActivityContext, OrchestrationContext, OrchestrationRegistry};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// Every activity the scenarios schedule.
pub fn activity_registry() -> ActivityRegistry {
    activities::register(ActivityRegistry::builder()).build()
}

/// Every scenario orchestration, and the names they are registered under.
pub fn orchestration_registry() -> (OrchestrationRegistry, Vec<&'static str>) {
    let mut names = Vec::new();
    let builder = OrchestrationRegistry::builder();
    let builder = activities::register_orchestrations(builder, &mut names);
    let builder = races::register(builder, &mut names);
    let builder = events::register(builder, &mut names);
    let builder = sub_orchestrations::register(builder, &mut names);
    let builder = continue_as_new::register(builder, &mut names);
    let builder = versioning::register(builder, &mut names);
    let builder = state::register(builder, &mut names);
    let builder = failures::register(builder, &mut names);
    (builder.build(), names)
}

/// The id of a child the scenario names itself: children's ids start with `<parent>::`, so a
/// scenario's instances are found by prefix.
fn child_id(ctx: &OrchestrationContext, suffix: &str) -> String {
    format!("{}::{suffix}", ctx.instance_id())
}

/// JSON text of a payload. duro and duroxide-node write every payload (inputs, outputs, event
/// data) as JSON text, strings included; duroxide's typed Rust API writes a string raw instead,
/// so the scenarios encode payloads themselves to write what duro writes.
pub(super) fn json<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|error| panic!("a scenario payload must encode as JSON: {error}"))
}

/// A payload read back from its JSON text.
pub(super) fn from_json<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    serde_json::from_str(text).map_err(|error| format!("payload {text:?} is not the JSON expected: {error}"))
}

/// The decoded result of a scheduled activity or sub-orchestration.
async fn decoded<T: DeserializeOwned>(task: impl Future<Output = Result<String, String>>) -> Result<T, String> {
    from_json(&task.await?)
}

/// Registers `f` as `name` with JSON input and output, and remembers the name.
pub(super) fn add_orchestration<In, Out, F, Fut>(
    builder: OrchestrationRegistryBuilder,
    names: &mut Vec<&'static str>,
    name: &'static str,
    f: F,
) -> OrchestrationRegistryBuilder
where
    In: DeserializeOwned + Send + 'static,
    Out: Serialize + Send + 'static,
    F: Fn(OrchestrationContext, In) -> Fut + Send + Sync + Clone + 'static,
    Fut: Future<Output = Result<Out, String>> + Send + 'static,
{
    names.push(name);
    builder.register(name, move |ctx, input: String| {
        let f = f.clone();
        async move { Ok(json(&f(ctx, from_json(&input)?).await?)) }
    })
}

/// Registers the activity `f` as `name` with JSON input and output.
pub(super) fn add_activity<In, Out, F, Fut>(
    builder: ActivityRegistryBuilder,
    name: &'static str,
    f: F,
) -> ActivityRegistryBuilder
where
    In: DeserializeOwned + Send + 'static,
    Out: Serialize + Send + 'static,
    F: Fn(ActivityContext, In) -> Fut + Send + Sync + Clone + 'static,
    Fut: Future<Output = Result<Out, String>> + Send + 'static,
{
    builder.register(name, move |ctx, input: String| {
        let f = f.clone();
        async move { Ok(json(&f(ctx, from_json(&input)?).await?)) }
    })
}
