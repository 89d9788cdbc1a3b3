//! Sub-orchestrations (awaited, failing, with an explicit id) and detached starts.

use duroxide::runtime::registry::OrchestrationRegistryBuilder;
use duroxide::OrchestrationContext;

use super::{add_orchestration, child_id};

pub fn register(builder: OrchestrationRegistryBuilder, names: &mut Vec<&'static str>) -> OrchestrationRegistryBuilder {
    let builder = add_orchestration(
        builder,
        names,
        "Greeter",
        |ctx: OrchestrationContext, name: String| async move { ctx.schedule_activity("Greet", name).await },
    );
    let builder = add_orchestration(
        builder,
        names,
        "ParentOfGreeter",
        |ctx: OrchestrationContext, name: String| async move {
            let said = ctx.schedule_sub_orchestration("Greeter", name).await?;
            Ok(format!("child said: {said}"))
        },
    );
    let builder = add_orchestration(
        builder,
        names,
        "FailingChild",
        |_ctx: OrchestrationContext, _input: String| async move { Err("child broke".to_string()) },
    );
    let builder = add_orchestration(
        builder,
        names,
        "ParentOfFailingChild",
        |ctx: OrchestrationContext, input: String| async move {
            match ctx.schedule_sub_orchestration("FailingChild", input).await {
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
            let said = ctx.schedule_sub_orchestration_with_id("Greeter", child, name).await?;
            Ok(format!("child said: {said}"))
        },
    );
    add_orchestration(
        builder,
        names,
        "DetachedStarter",
        |ctx: OrchestrationContext, name: String| async move {
            ctx.schedule_orchestration("Greeter", child_id(&ctx, "detached"), name);
            Ok("started".to_string())
        },
    )
}
