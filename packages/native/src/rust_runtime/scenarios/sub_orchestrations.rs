//! Sub-orchestrations (awaited, failing, with an explicit id) and detached starts.

use duroxide::runtime::registry::OrchestrationRegistryBuilder;
use duroxide::OrchestrationContext;

use super::{add_orchestration, child_id, decoded, json};

pub fn register(builder: OrchestrationRegistryBuilder, names: &mut Vec<&'static str>) -> OrchestrationRegistryBuilder {
    let builder = add_orchestration(
        builder,
        names,
        "Greeter",
        |ctx: OrchestrationContext, name: String| async move {
            decoded::<String>(ctx.schedule_activity("Greet", json(&name))).await
        },
    );
    let builder = add_orchestration(
        builder,
        names,
        "ParentOfGreeter",
        |ctx: OrchestrationContext, name: String| async move {
            let said: String = decoded(ctx.schedule_sub_orchestration("Greeter", json(&name))).await?;
            Ok(format!("child said: {said}"))
        },
    );
    let builder = add_orchestration(
        builder,
        names,
        "FailingChild",
        |_ctx: OrchestrationContext, _input: ()| async move { Err::<String, _>("child broke".to_string()) },
    );
    let builder = add_orchestration(
        builder,
        names,
        "ParentOfFailingChild",
        |ctx: OrchestrationContext, input: ()| async move {
            match decoded::<String>(ctx.schedule_sub_orchestration("FailingChild", json(&input))).await {
                Ok(output) => Ok(output),
                Err(error) => Ok(format!("caught: {error}")),
            }
        },
    );
    let builder = add_orchestration(
        builder,
        names,
        "ParentWithChildId",
        |ctx: OrchestrationContext, name: String| async move {
            let child = child_id(&ctx, "child");
            let said: String = decoded(ctx.schedule_sub_orchestration_with_id("Greeter", child, json(&name))).await?;
            Ok(format!("child said: {said}"))
        },
    );
    add_orchestration(
        builder,
        names,
        "DetachedStarter",
        |ctx: OrchestrationContext, name: String| async move {
            ctx.schedule_orchestration("Greeter", child_id(&ctx, "detached"), json(&name));
            Ok("started".to_string())
        },
    )
}
