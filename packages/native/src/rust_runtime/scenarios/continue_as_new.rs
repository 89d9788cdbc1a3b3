//! Continue-as-new: a counter, and a queue consumed across executions.

use duroxide::runtime::registry::OrchestrationRegistryBuilder;
use duroxide::OrchestrationContext;

use super::{add_orchestration, from_json, json};

pub fn register(builder: OrchestrationRegistryBuilder, names: &mut Vec<&'static str>) -> OrchestrationRegistryBuilder {
    let builder = add_orchestration(
        builder,
        names,
        "CountToThree",
        |ctx: OrchestrationContext, count: u32| async move {
            if count >= 3 {
                return Ok(count);
            }
            // Continue-as-new ends the execution: the future never resolves.
            ctx.continue_as_new(json(&(count + 1))).await?;
            Ok(count)
        },
    );
    add_orchestration(
        builder,
        names,
        "QueueAcrossContinueAsNew",
        |ctx: OrchestrationContext, received: String| async move {
            if received.is_empty() {
                // The client enqueues all three messages before it raises `Go`, so every run
                // records them in one order and carries the last two into the next execution,
                // however slowly the client gets to it.
                ctx.set_custom_status("waiting");
                ctx.schedule_wait("Go").await;
            }
            let message = from_json::<String>(&ctx.dequeue_event("inbox").await)?;
            let received = if received.is_empty() {
                message
            } else {
                format!("{received},{message}")
            };
            if received.split(',').count() >= 3 {
                return Ok(received);
            }
            // Messages that arrived while this execution ran must reach the next one.
            ctx.continue_as_new(json(&received)).await?;
            Ok(received)
        },
    )
}
