//! `@duro/native`: the Rust duroxide runtime and duroxide-pg provider inside a Node process, for
//! checking duro against duroxide. Every export lives in the module named for its concern.

mod duroxide_pg_schema;
mod errors;
mod js_provider;
mod rust_runtime;
mod serde_roundtrip;
mod validations;
mod wire;

use napi_derive::napi;

/// The duroxide release this addon embeds (named once, in the root `Cargo.toml`).
#[napi]
pub fn duroxide_version() -> String {
    duroxide::current_build_version().to_string()
}

/// `release` or `debug`: how this addon was compiled. A debug build runs the Rust runtime several
/// times slower, so benchmarks refuse it (see `tools/bench`).
#[napi]
pub fn build_profile() -> String {
    let profile = if cfg!(debug_assertions) { "debug" } else { "release" };
    profile.to_string()
}
