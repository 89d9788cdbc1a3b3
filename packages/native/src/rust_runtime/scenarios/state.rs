//! Instance state: key-value entries (own and another instance's), custom status, and the
//! deterministic GUID and clock.

use std::collections::BTreeMap;
use std::time::UNIX_EPOCH;

use duroxide::runtime::registry::OrchestrationRegistryBuilder;
use duroxide::OrchestrationContext;

use super::{add_orchestration, child_id, decoded, json};

pub fn register(builder: OrchestrationRegistryBuilder, names: &mut Vec<&'static str>) -> OrchestrationRegistryBuilder {
    let builder = add_orchestration(
        builder,
        names,
        "KeyValueState",
        |ctx: OrchestrationContext, _input: ()| async move {
            ctx.set_kv_value("a", "1");
            ctx.set_kv_value("b", "2");
            ctx.clear_kv_value("a");
            let values: BTreeMap<String, String> = ctx.get_kv_all_values().into_iter().collect();
            Ok(values)
        },
    );
    let builder = add_orchestration(
        builder,
        names,
        "ValueSetter",
        |ctx: OrchestrationContext, color: String| async move {
            ctx.set_kv_value("color", color);
            Ok("set".to_string())
        },
    );
    let builder = add_orchestration(
        builder,
        names,
        "ReadChildValue",
        |ctx: OrchestrationContext, color: String| async move {
            let child = child_id(&ctx, "child");
            decoded::<String>(ctx.schedule_sub_orchestration_with_id("ValueSetter", child.clone(), json(&color)))
                .await?;
            let value = ctx.get_kv_value_from_instance(child, "color").await?;
            Ok(value.unwrap_or_else(|| "missing".to_string()))
        },
    );
    let builder = add_orchestration(
        builder,
        names,
        "CustomStatusSteps",
        |ctx: OrchestrationContext, name: String| async move {
            ctx.set_custom_status("step-1");
            decoded::<String>(ctx.schedule_activity("Greet", json(&name))).await?;
            ctx.set_custom_status("step-2");
            Ok(ctx.get_custom_status().unwrap_or_default())
        },
    );
    add_orchestration(
        builder,
        names,
        "GuidAndTime",
        |ctx: OrchestrationContext, _input: ()| async move {
            let guid = ctx.new_guid().await?;
            let now = ctx.utc_now().await?;
            let now_ms = now
                .duration_since(UNIX_EPOCH)
                .map_err(|error| error.to_string())?
                .as_millis();
            Ok(format!("{guid} {now_ms}"))
        },
    )
}
