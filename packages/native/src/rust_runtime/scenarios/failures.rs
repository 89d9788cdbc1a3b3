//! Ways an orchestration ends badly: cancellation (also of a child), its own error, and
//! nondeterminism.

use std::collections::HashSet;
use std::sync::Mutex;

use duroxide::runtime::registry::OrchestrationRegistryBuilder;
use duroxide::OrchestrationContext;

use super::{add_orchestration, child_id, decoded, from_json, json};

/// Instances `ChangesItsMind` has run for: it schedules a different activity once it has.
static SEEN_BY_CHANGES_ITS_MIND: Mutex<Option<HashSet<String>>> = Mutex::new(None);

pub fn register(builder: OrchestrationRegistryBuilder, names: &mut Vec<&'static str>) -> OrchestrationRegistryBuilder {
    let builder = add_orchestration(
        builder,
        names,
        "WaitForever",
        |ctx: OrchestrationContext, _input: ()| async move {
            ctx.set_custom_status("waiting");
            let data: String = from_json(&ctx.schedule_wait("Never").await)?;
            Ok(format!("event: {data}"))
        },
    );
    let builder = add_orchestration(
        builder,
        names,
        "ParentOfWaiter",
        |ctx: OrchestrationContext, input: ()| async move {
            ctx.set_custom_status("waiting");
            decoded::<String>(ctx.schedule_sub_orchestration_with_id(
                "WaitForever",
                child_id(&ctx, "child"),
                json(&input),
            ))
            .await
        },
    );
    let builder = add_orchestration(
        builder,
        names,
        "FailOrchestration",
        |_ctx: OrchestrationContext, _input: ()| async move { Err::<String, _>("boom".to_string()) },
    );
    add_orchestration(
        builder,
        names,
        "ChangesItsMind",
        |ctx: OrchestrationContext, name: String| async move {
            let first_run = {
                let mut seen = SEEN_BY_CHANGES_ITS_MIND
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                seen.get_or_insert_with(HashSet::new).insert(ctx.instance_id())
            };
            // The first turn records `Greet`; the replay asks for `Shout` in its place.
            let activity = if first_run { "Greet" } else { "Shout" };
            decoded::<String>(ctx.schedule_activity(activity, json(&name))).await
        },
    )
}
