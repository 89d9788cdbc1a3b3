//! Activities, and the scenarios about running them: chains, fan-out, failures, retries,
//! sessions and tags.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use duroxide::runtime::registry::{ActivityRegistryBuilder, OrchestrationRegistryBuilder};
use duroxide::{ActivityContext, BackoffStrategy, OrchestrationContext, RetryPolicy};

use super::add_orchestration;

/// Attempts `FlakyTwice` has seen, per instance: the activity fails until its third attempt.
static FLAKY_ATTEMPTS: Mutex<Option<HashMap<String, u32>>> = Mutex::new(None);

pub fn register(builder: ActivityRegistryBuilder) -> ActivityRegistryBuilder {
    builder
        .register("Greet", |_ctx: ActivityContext, name: String| async move {
            Ok(format!("Hello, {name}!"))
        })
        .register("Shout", |_ctx: ActivityContext, text: String| async move {
            Ok(text.to_uppercase())
        })
        .register("Double", |_ctx: ActivityContext, n: String| async move {
            let n: i64 = n.parse().map_err(|_| format!("not a number: {n}"))?;
            Ok((2 * n).to_string())
        })
        .register("ChargeCard", |_ctx: ActivityContext, _card: String| async move {
            Err("card declined".to_string())
        })
        .register("FlakyTwice", |ctx: ActivityContext, _input: String| async move {
            let attempt = {
                let mut attempts = FLAKY_ATTEMPTS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                let count = attempts
                    .get_or_insert_with(HashMap::new)
                    .entry(ctx.instance_id().to_string())
                    .or_insert(0);
                *count += 1;
                *count
            };
            if attempt < 3 {
                Err(format!("attempt {attempt} failed"))
            } else {
                Ok(format!("ok after {attempt} attempts"))
            }
        })
        .register("SessionOf", |ctx: ActivityContext, _input: String| async move {
            Ok(ctx.session_id().unwrap_or("none").to_string())
        })
        .register("TagOf", |ctx: ActivityContext, _input: String| async move {
            Ok(ctx.tag().unwrap_or("none").to_string())
        })
}

pub fn register_orchestrations(
    builder: OrchestrationRegistryBuilder,
    names: &mut Vec<&'static str>,
) -> OrchestrationRegistryBuilder {
    let builder = add_orchestration(
        builder,
        names,
        "ActivityChain",
        |ctx: OrchestrationContext, name: String| async move {
            let greeting = ctx.schedule_activity("Greet", name).await?;
            ctx.schedule_activity("Shout", greeting).await
        },
    );
    let builder = add_orchestration(
        builder,
        names,
        "ActivityFanOut",
        |ctx: OrchestrationContext, input: String| async move {
            let doubles = input.split(',').map(|n| ctx.schedule_activity("Double", n)).collect();
            let mut sum = 0i64;
            for result in ctx.join(doubles).await {
                sum += result?.parse::<i64>().map_err(|error| error.to_string())?;
            }
            Ok(sum.to_string())
        },
    );
    let builder = add_orchestration(
        builder,
        names,
        "ActivityFailureCaught",
        |ctx: OrchestrationContext, card: String| async move {
            match ctx.schedule_activity("ChargeCard", card).await {
                Ok(receipt) => Ok(receipt),
                Err(error) => Ok(format!("compensated: {error}")),
            }
        },
    );
    let builder = add_orchestration(
        builder,
        names,
        "ActivityRetry",
        |ctx: OrchestrationContext, input: String| async move {
            let policy = RetryPolicy {
                max_attempts: 3,
                backoff: BackoffStrategy::Fixed {
                    delay: Duration::from_millis(10),
                },
                timeout: None,
            };
            ctx.schedule_activity_with_retry("FlakyTwice", input, policy).await
        },
    );
    let builder = add_orchestration(
        builder,
        names,
        "SessionActivities",
        |ctx: OrchestrationContext, session: String| async move {
            let first = ctx
                .schedule_activity_on_session("SessionOf", "", session.clone())
                .await?;
            let second = ctx.schedule_activity_on_session("SessionOf", "", session).await?;
            Ok(format!("{first},{second}"))
        },
    );
    add_orchestration(
        builder,
        names,
        "TaggedActivity",
        |ctx: OrchestrationContext, tag: String| async move { ctx.schedule_activity("TagOf", "").with_tag(tag).await },
    )
}
