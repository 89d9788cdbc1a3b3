//! The shapes that cross the bridge between a JavaScript provider and the Rust side.
//!
//! Events and work items travel as JSON strings in duroxide's serde format, so the JavaScript
//! side proves its codec on every call; everything else is a plain object. Absent values are
//! written as `null` (never left out), because duroxide's JSON tells null and omitted apart and
//! the bridge must not blur that difference anywhere else either.

pub mod admin_calls;
pub mod js_function;
pub mod provider_calls;
pub mod provider_objects;
