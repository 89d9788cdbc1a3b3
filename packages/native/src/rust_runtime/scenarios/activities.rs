//! Activities, and the scenarios about running them: chains, fan-out, failures, retries,
//! sessions and tags.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use duroxide::runtime::registry::{ActivityRegistryBuilder, OrchestrationRegistryBuilder};
use duroxide::{ActivityContext, BackoffStrategy, OrchestrationContext, RetryPolicy};

use super::{add_activity, add_orchestration, decoded, json};

/// Attempts `FlakyTwice` has seen, per instance: the activity fails until its third attempt.
static FLAKY_ATTEMPTS: Mutex<Option<HashMap<String, u32>>> = Mutex::new(None);

pub fn register(builder: ActivityRegistryBuilder) -> ActivityRegistryBuilder {
    let builder = add_activity(builder, "Greet", |_ctx: ActivityContext, name: String| async move {
        Ok(format!("Hello, {name}!"))
    });
    let builder = add_activity(builder, "Shout", |_ctx: ActivityContext, text: String| async move {
        Ok(text.to_uppercase())
    });
    let builder = add_activity(
        builder,
        "Double",
        |_ctx: ActivityContext, n: i64| async move { Ok(2 * n) },
    );
    let builder = add_activity(
        builder,
        "ChargeCard",
        |_ctx: ActivityContext, _card: String| async move { Err::<String, _>("card declined".to_string()) },
    );
    let builder = add_activity(builder, "FlakyTwice", |ctx: ActivityContext, _job: String| async move {
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
    });
    let builder = add_activity(builder, "SessionOf", |ctx: ActivityContext, _input: ()| async move {
        Ok(ctx.session_id().unwrap_or("none").to_string())
    });
    add_activity(builder, "TagOf", |ctx: ActivityContext, _input: ()| async move {
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
            let greeting: String = decoded(ctx.schedule_activity("Greet", json(&name))).await?;
            decoded::<String>(ctx.schedule_activity("Shout", json(&greeting))).await
        },
    );
    let builder = add_orchestration(
        builder,
        names,
        "ActivityFanOut",
        |ctx: OrchestrationContext, numbers: Vec<i64>| async move {
            let doubles = numbers
                .iter()
                .map(|n| ctx.schedule_activity("Double", json(n)))
                .collect();
            let mut sum = 0;
            for result in ctx.join(doubles).await {
                sum += super::from_json::<i64>(&result?)?;
            }
            Ok(sum)
        },
    );
    let builder = add_orchestration(
        builder,
        names,
        "ActivityFailureCaught",
        |ctx: OrchestrationContext, card: String| async move {
            match decoded::<String>(ctx.schedule_activity("ChargeCard", json(&card))).await {
                Ok(receipt) => Ok(receipt),
                Err(error) => Ok(format!("compensated: {error}")),
            }
        },
    );
    let builder = add_orchestration(
        builder,
        names,
        "ActivityRetry",
        |ctx: OrchestrationContext, job: String| async move {
            let policy = RetryPolicy {
                max_attempts: 3,
                backoff: BackoffStrategy::Fixed {
                    delay: Duration::from_millis(10),
                },
                timeout: None,
            };
            decoded::<String>(ctx.schedule_activity_with_retry("FlakyTwice", json(&job), policy)).await
        },
    );
    let builder = add_orchestration(
        builder,
        names,
        "SessionActivities",
        |ctx: OrchestrationContext, session: String| async move {
            let first: String = decoded(ctx.schedule_activity_on_session("SessionOf", json(&()), &session)).await?;
            let second: String = decoded(ctx.schedule_activity_on_session("SessionOf", json(&()), session)).await?;
            Ok(format!("{first},{second}"))
        },
    );
    add_orchestration(
        builder,
        names,
        "TaggedActivity",
        |ctx: OrchestrationContext, tag: String| async move {
            decoded::<String>(ctx.schedule_activity("TagOf", json(&())).with_tag(tag)).await
        },
    )
}
