//! External events and queues, the queue-race shapes included.

use std::time::Duration;

use duroxide::runtime::registry::OrchestrationRegistryBuilder;
use duroxide::{Either2, OrchestrationContext};

use super::{add_orchestration, from_json};

const NEVER: Duration = Duration::from_secs(3600);

pub fn register(builder: OrchestrationRegistryBuilder, names: &mut Vec<&'static str>) -> OrchestrationRegistryBuilder {
    let builder = add_orchestration(
        builder,
        names,
        "ExternalEvent",
        |ctx: OrchestrationContext, _input: ()| async move {
            ctx.set_custom_status("waiting");
            let approval: String = from_json(&ctx.schedule_wait("Approval").await)?;
            Ok(format!("approved: {approval}"))
        },
    );
    let builder = add_orchestration(
        builder,
        names,
        "ExternalEventsInOrder",
        |ctx: OrchestrationContext, _input: ()| async move {
            // An event raised before its subscription exists is not delivered, so the client
            // waits for each subscription before it raises the next event.
            ctx.set_custom_status("waiting");
            let first: String = from_json(&ctx.schedule_wait("Step").await)?;
            ctx.set_custom_status("waiting-2");
            let second: String = from_json(&ctx.schedule_wait("Step").await)?;
            Ok(format!("{first},{second}"))
        },
    );
    let builder = add_orchestration(
        builder,
        names,
        "QueueDequeue",
        |ctx: OrchestrationContext, _input: ()| async move {
            // The client enqueues both messages before it raises `Go`, so every run records
            // them before the dequeues subscribe, in one order, however slow the machine.
            ctx.set_custom_status("waiting");
            ctx.schedule_wait("Go").await;
            let first: String = from_json(&ctx.dequeue_event("inbox").await)?;
            let second: String = from_json(&ctx.dequeue_event("inbox").await)?;
            Ok(format!("{first},{second}"))
        },
    );
    let builder = add_orchestration(
        builder,
        names,
        "QueueRaceMessageWins",
        |ctx: OrchestrationContext, _input: ()| async move {
            ctx.set_custom_status("waiting");
            match ctx.select2(ctx.dequeue_event("inbox"), ctx.schedule_timer(NEVER)).await {
                Either2::First(message) => Ok(format!("message: {}", from_json::<String>(&message)?)),
                Either2::Second(()) => Ok("timeout".to_string()),
            }
        },
    );
    add_orchestration(
        builder,
        names,
        "QueueRaceTimeoutThenMessage",
        |ctx: OrchestrationContext, _input: ()| async move {
            let dequeue = ctx.dequeue_event("inbox");
            let first = match ctx
                .select2(dequeue, ctx.schedule_timer(Duration::from_millis(50)))
                .await
            {
                Either2::First(message) => format!("message {}", from_json::<String>(&message)?),
                Either2::Second(()) => "timeout".to_string(),
            };
            // The dequeue that lost the race must not swallow the next message.
            ctx.set_custom_status("waiting");
            let late: String = from_json(&ctx.dequeue_event("inbox").await)?;
            Ok(format!("{first}, then {late}"))
        },
    )
}
