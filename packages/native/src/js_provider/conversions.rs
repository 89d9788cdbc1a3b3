//! Conversions between duroxide's provider types and the wire shapes of `crate::wire`.

use std::time::Duration;

use duroxide::providers::{
    DispatcherCapabilityFilter, ExecutionMetadata, ProviderError, ScheduledActivityIdentifier, SessionFetchConfig,
    TagFilter, WorkItem,
};
use duroxide::Event;

use crate::wire::provider_objects::{
    WireCapabilityFilter, WireExecutionMetadata, WireScheduledActivityIdentifier, WireSemverRange,
    WireSessionFetchConfig, WireTagFilter,
};

/// Milliseconds of a duration, saturating at what a JavaScript number can hold exactly.
pub fn duration_ms(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis())
        .unwrap_or(i64::MAX)
        .min(MAX_SAFE_INTEGER)
}

/// A duroxide `u64` as a JavaScript number, saturating above 2^53 - 1.
pub fn u64_to_js(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX).min(MAX_SAFE_INTEGER)
}

/// A JavaScript number where duroxide holds a `u64`.
pub fn u64_from_js(operation: &str, what: &str, value: i64) -> Result<u64, ProviderError> {
    u64::try_from(value).map_err(|_| {
        ProviderError::permanent(
            operation,
            format!("the JavaScript provider returned a negative {what}: {value}"),
        )
    })
}

/// A JavaScript count where duroxide holds a `usize`.
pub fn usize_from_js(operation: &str, what: &str, value: i64) -> Result<usize, ProviderError> {
    usize::try_from(value).map_err(|_| {
        ProviderError::permanent(
            operation,
            format!("the JavaScript provider returned a negative {what}: {value}"),
        )
    })
}

const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

fn encode<T: serde::Serialize>(operation: &str, what: &str, value: &T) -> Result<String, ProviderError> {
    serde_json::to_string(value)
        .map_err(|error| ProviderError::permanent(operation, format!("cannot encode {what} as JSON: {error}")))
}

/// Serde JSON of each event.
pub fn events_to_json(operation: &str, events: &[Event]) -> Result<Vec<String>, ProviderError> {
    events
        .iter()
        .map(|event| encode(operation, "an event", event))
        .collect()
}

/// Serde JSON of each work item.
pub fn work_items_to_json(operation: &str, items: &[WorkItem]) -> Result<Vec<String>, ProviderError> {
    items.iter().map(|item| work_item_to_json(operation, item)).collect()
}

/// Serde JSON of a work item.
pub fn work_item_to_json(operation: &str, item: &WorkItem) -> Result<String, ProviderError> {
    encode(operation, "a work item", item)
}

/// Events decoded from the JSON a JavaScript provider returned.
pub fn events_from_json(operation: &str, jsons: &[String]) -> Result<Vec<Event>, ProviderError> {
    jsons
        .iter()
        .map(|json| {
            serde_json::from_str(json).map_err(|error| {
                ProviderError::permanent(
                    operation,
                    format!("duroxide cannot decode an event the JavaScript provider returned ({error}): {json}"),
                )
            })
        })
        .collect()
}

/// A work item decoded from the JSON a JavaScript provider returned.
pub fn work_item_from_json(operation: &str, json: &str) -> Result<WorkItem, ProviderError> {
    serde_json::from_str(json).map_err(|error| {
        ProviderError::permanent(
            operation,
            format!("duroxide cannot decode a work item the JavaScript provider returned ({error}): {json}"),
        )
    })
}

/// Work items decoded from JSON.
pub fn work_items_from_json(operation: &str, jsons: &[String]) -> Result<Vec<WorkItem>, ProviderError> {
    jsons.iter().map(|json| work_item_from_json(operation, json)).collect()
}

/// The wire form of a tag filter; tags are sorted so calls are reproducible.
pub fn tag_filter_to_wire(filter: &TagFilter) -> WireTagFilter {
    let sorted = |set: &std::collections::HashSet<String>| {
        let mut tags: Vec<String> = set.iter().cloned().collect();
        tags.sort();
        tags
    };
    let (variant, tags) = match filter {
        TagFilter::DefaultOnly => ("DefaultOnly", Vec::new()),
        TagFilter::Tags(set) => ("Tags", sorted(set)),
        TagFilter::DefaultAnd(set) => ("DefaultAnd", sorted(set)),
        TagFilter::Any => ("Any", Vec::new()),
        TagFilter::None => ("None", Vec::new()),
    };
    WireTagFilter {
        variant: variant.to_string(),
        tags,
    }
}

/// The wire form of a capability filter.
pub fn capability_filter_to_wire(filter: &DispatcherCapabilityFilter) -> WireCapabilityFilter {
    WireCapabilityFilter {
        supported_duroxide_versions: filter
            .supported_duroxide_versions
            .iter()
            .map(|range| WireSemverRange {
                min: range.min.to_string(),
                max: range.max.to_string(),
            })
            .collect(),
    }
}

/// The wire form of a session fetch configuration.
pub fn session_to_wire(session: &SessionFetchConfig) -> WireSessionFetchConfig {
    WireSessionFetchConfig {
        owner_id: session.owner_id.clone(),
        lock_timeout_ms: duration_ms(session.lock_timeout),
    }
}

/// The wire form of execution metadata.
pub fn metadata_to_wire(metadata: ExecutionMetadata) -> WireExecutionMetadata {
    WireExecutionMetadata {
        status: metadata.status,
        output: metadata.output,
        orchestration_name: metadata.orchestration_name,
        orchestration_version: metadata.orchestration_version,
        parent_instance_id: metadata.parent_instance_id,
        pinned_duroxide_version: metadata.pinned_duroxide_version.map(|version| version.to_string()),
    }
}

/// The wire form of an activity identity.
pub fn activity_identifier_to_wire(id: &ScheduledActivityIdentifier) -> WireScheduledActivityIdentifier {
    WireScheduledActivityIdentifier {
        instance: id.instance.clone(),
        execution_id: u64_to_js(id.execution_id),
        activity_id: u64_to_js(id.activity_id),
    }
}
