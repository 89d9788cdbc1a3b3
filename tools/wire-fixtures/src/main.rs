//! Writes the golden JSON fixtures of `@duro/core`'s wire codec with duroxide's own types and
//! serde_json, so the TypeScript codec is checked against the real serializer.
//!
//! Usage: `wire-fixtures [OUTPUT_DIR]`. The default output is
//! `packages/core/src/model/__fixtures__` of this repository. Each run replaces the `events/`,
//! `work-items/`, `error-details/` and `read-rules/` folders and the README there; nothing else is touched.

mod error_details;
mod events;
mod read_rules;
mod samples;
mod work_items;

use std::fs;
use std::path::{Path, PathBuf};

/// One fixture file: its name without extension, and the exact compact serde_json text.
pub struct Fixture {
    name: String,
    json: String,
}

impl Fixture {
    pub fn new<T: serde::Serialize>(name: &str, value: &T) -> Self {
        let json = serde_json::to_string(value).expect("duroxide types always serialize");
        Fixture::text(name, json)
    }

    /// A fixture whose text is already written.
    pub fn text(name: &str, json: String) -> Self {
        Fixture {
            name: name.to_string(),
            json,
        }
    }
}

const README: &str = "\
# Golden wire fixtures (generated, do not edit)

Every file in `events/`, `work-items/` and `error-details/` is the exact compact serde_json text
that duroxide writes for one value of `Event`, `WorkItem` or `ErrorDetails` (no trailing newline).
They are written by `tools/wire-fixtures`, a Rust program that builds the values with the
duroxide crate pinned in the root `Cargo.toml`. Do not edit them by hand: change the program and
run `pnpm --filter @duro/wire-fixtures generate`. `pnpm check-generated` fails when these files
differ from what the program writes.

File names are `<Rust variant>[.<what differs>].json`. Timestamps, ids and payloads are fixed
values, so the output is the same on every run.

`read-rules/` records what serde accepts on read: each file holds a hand-written `input` text,
the `target` type it was decoded as, and either the `output` duroxide writes back for it or the
`error` serde reported (both are serde's own results).

`rust-duroxide-0.1.30/` is not generated here: it holds history and queue rows captured from a
real Rust deployment; its own README says where they come from.
";

fn main() {
    let output = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../packages/core/src/model/__fixtures__")
        });
    fs::create_dir_all(&output).expect("create the output folder");
    write_group(&output.join("events"), events::fixtures());
    write_group(&output.join("work-items"), work_items::fixtures());
    write_group(&output.join("error-details"), error_details::fixtures());
    write_group(&output.join("read-rules"), read_rules::fixtures());
    fs::write(output.join("README.md"), README).expect("write README.md");
}

fn write_group(folder: &Path, fixtures: Vec<Fixture>) {
    if folder.exists() {
        fs::remove_dir_all(folder).expect("remove the previous fixtures");
    }
    fs::create_dir_all(folder).expect("create the fixture folder");
    for fixture in fixtures {
        let path = folder.join(format!("{}.json", fixture.name));
        assert!(!path.exists(), "two fixtures are named {}", fixture.name);
        fs::write(&path, fixture.json).expect("write a fixture");
    }
}
