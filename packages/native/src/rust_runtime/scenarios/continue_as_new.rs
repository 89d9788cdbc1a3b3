//! Continue-as-new: a counter, and a queue consumed across executions.

use std::time::Duration;

use duroxide::runtime::registry::OrchestrationRegistryBuilder;
use duroxide::OrchestrationContext;

use super::add_orchestration;

pub fn register(builder: OrchestrationRegistryBuilder, names: &mut Vec<&'static str>) -> OrchestrationRegistryBuilder {
    let builder = add_orchestration(
        builder,
        names,
        "CountToThree",
        |ctx: OrchestrationContext, count: String| async move {
            let count: u32 = count.parse().map_err(|_| format!("not a count: {count}"))?;
            if count >= 3 {
                return Ok(count.to_string());
            }
            ctx.continue_as_new((count + 1).to_string()).await
        },
    );
    add_orchestration(
        builder,
        names,
        "QueueAcrossContinueAsNew",
        |ctx: OrchestrationContext, received: String| async move {
            if received.is_empty() {
                // The client enqueues all three messages during this timer, so every run records
                // them in one order and carries the last two into the next execution.
                ctx.set_custom_status("waiting");
                ctx.schedule_timer(Duration::from_millis(500)).await;
            }
            let message = ctx.dequeue_event("inbox").await;
            let received = if received.is_empty() {
                message
            } else {
                format!("{received},{message}")
            };
            if received.split(',').count() >= 3 {
                return Ok(received);
            }
            // Messages that arrived while this execution ran must reach the next one.
            ctx.continue_as_new(received).await
        },
    )
}
