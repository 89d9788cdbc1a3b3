//! Timers, and races between timers, events and activities.

use std::time::Duration;

use duroxide::runtime::registry::OrchestrationRegistryBuilder;
use duroxide::{Either2, Either3, OrchestrationContext};

use super::{add_orchestration, decoded, from_json, json};

/// Long enough never to fire while a scenario runs.
const NEVER: Duration = Duration::from_secs(3600);

pub fn register(builder: OrchestrationRegistryBuilder, names: &mut Vec<&'static str>) -> OrchestrationRegistryBuilder {
    let builder = add_orchestration(
        builder,
        names,
        "TimerThenActivity",
        |ctx: OrchestrationContext, name: String| async move {
            ctx.schedule_timer(Duration::from_millis(50)).await;
            let greeting: String = decoded(ctx.schedule_activity("Greet", json(&name))).await?;
            Ok(format!("after timer: {greeting}"))
        },
    );
    let builder = add_orchestration(
        builder,
        names,
        "RaceActivityTimer",
        |ctx: OrchestrationContext, name: String| async move {
            let activity = ctx.schedule_activity("Greet", json(&name));
            match ctx.select2(activity, ctx.schedule_timer(NEVER)).await {
                Either2::First(greeting) => Ok(format!("activity: {}", from_json::<String>(&greeting?)?)),
                Either2::Second(()) => Ok("timeout".to_string()),
            }
        },
    );
    let builder = add_orchestration(
        builder,
        names,
        "RaceTimerEvent",
        |ctx: OrchestrationContext, _input: ()| async move {
            let timer = ctx.schedule_timer(Duration::from_millis(50));
            match ctx.select2(timer, ctx.schedule_wait("Never")).await {
                Either2::First(()) => Ok("timeout".to_string()),
                Either2::Second(data) => Ok(format!("event: {}", from_json::<String>(&data)?)),
            }
        },
    );
    add_orchestration(
        builder,
        names,
        "RaceThreeWay",
        |ctx: OrchestrationContext, name: String| async move {
            let timer = ctx.schedule_timer(NEVER);
            let event = ctx.schedule_wait("Never");
            match ctx
                .select3(timer, event, ctx.schedule_activity("Greet", json(&name)))
                .await
            {
                Either3::First(()) => Ok("timeout".to_string()),
                Either3::Second(data) => Ok(format!("event: {}", from_json::<String>(&data)?)),
                Either3::Third(greeting) => Ok(format!("activity: {}", from_json::<String>(&greeting?)?)),
            }
        },
    )
}
