//! Versioning: two versions of one orchestration, and an upgrade through continue-as-new.

use duroxide::runtime::registry::OrchestrationRegistryBuilder;
use duroxide::OrchestrationContext;

pub fn register(builder: OrchestrationRegistryBuilder, names: &mut Vec<&'static str>) -> OrchestrationRegistryBuilder {
    names.push("Versioned");
    builder
        .register_versioned(
            "Versioned",
            "1.0.0",
            |ctx: OrchestrationContext, input: String| async move {
                if input == "upgrade" {
                    return ctx.continue_as_new_versioned("2.0.0", "from v1").await;
                }
                Ok(format!("v1:{input}"))
            },
        )
        .register_versioned(
            "Versioned",
            "2.0.0",
            |_ctx: OrchestrationContext, input: String| async move { Ok(format!("v2:{input}")) },
        )
}
