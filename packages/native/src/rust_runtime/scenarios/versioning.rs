//! Versioning: two versions of one orchestration, and an upgrade through continue-as-new.

use duroxide::runtime::registry::OrchestrationRegistryBuilder;
use duroxide::OrchestrationContext;

use super::{from_json, json};

pub fn register(builder: OrchestrationRegistryBuilder, names: &mut Vec<&'static str>) -> OrchestrationRegistryBuilder {
    names.push("Versioned");
    builder
        .register_versioned(
            "Versioned",
            "1.0.0",
            |ctx: OrchestrationContext, input: String| async move {
                let input: String = from_json(&input)?;
                if input == "upgrade" {
                    // Continue-as-new ends the execution: the future never resolves.
                    ctx.continue_as_new_versioned("2.0.0", json("from v1")).await?;
                }
                Ok(json(&format!("v1:{input}")))
            },
        )
        .register_versioned(
            "Versioned",
            "2.0.0",
            |_ctx: OrchestrationContext, input: String| async move {
                let input: String = from_json(&input)?;
                Ok(json(&format!("v2:{input}")))
            },
        )
}
