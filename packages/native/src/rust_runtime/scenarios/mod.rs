//! The Rust side of the scenario catalogue: one orchestration per scenario (registered under
//! the name the catalogue gives), grouped by feature, plus the activities they use.

mod activities;
mod continue_as_new;
mod events;
mod failures;
mod races;
mod state;
mod sub_orchestrations;
mod versioning;

use duroxide::runtime::registry::{ActivityRegistry, OrchestrationRegistryBuilder};
use duroxide::OrchestrationRegistry;

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
fn child_id(ctx: &duroxide::OrchestrationContext, suffix: &str) -> String {
    format!("{}::{suffix}", ctx.instance_id())
}

/// Registers `f` as `name` and remembers the name.
fn add_orchestration<F, Fut>(
    builder: OrchestrationRegistryBuilder,
    names: &mut Vec<&'static str>,
    name: &'static str,
    f: F,
) -> OrchestrationRegistryBuilder
where
    F: Fn(duroxide::OrchestrationContext, String) -> Fut + Send + Sync + 'static,
    Fut: std::future::Future<Output = Result<String, String>> + Send + 'static,
{
    names.push(name);
    builder.register(name, f)
}
