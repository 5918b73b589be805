//! docs/architecture.md draws the crate graph that `cargo metadata` shows:
//! every workspace crate, each with exactly the workspace crates it depends
//! on, and no crate depending on one listed below it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

type Graph = BTreeMap<String, BTreeSet<String>>;

/// The graph of the workspace's normal dependencies, as `cargo metadata` reads the manifests.
fn from_cargo(workspace: &Path) -> Graph {
    let output = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(workspace)
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let packages = metadata["packages"].as_array().unwrap();
    let names: BTreeSet<String> = packages
        .iter()
        .map(|package| package["name"].as_str().unwrap().to_owned())
        .collect();
    packages
        .iter()
        .map(|package| {
            let dependencies = package["dependencies"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|dependency| dependency["kind"].is_null())
                .map(|dependency| dependency["name"].as_str().unwrap().to_owned())
                .filter(|name| names.contains(name))
                .collect();
            (package["name"].as_str().unwrap().to_owned(), dependencies)
        })
        .collect()
}

/// The lines of the document's first `text` block, in order: `crate -> a, b`.
fn from_document(text: &str) -> Vec<(String, BTreeSet<String>)> {
    let block = text
        .split("```text\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("docs/architecture.md has a ```text block with the graph");
    block
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let (name, dependencies) = line
                .split_once("->")
                .unwrap_or_else(|| panic!("not `crate -> dependencies`: {line}"));
            let dependencies = dependencies
                .split(',')
                .map(str::trim)
                .filter(|name| !name.is_empty())
                .map(str::to_owned)
                .collect();
            (name.trim().to_owned(), dependencies)
        })
        .collect()
}

#[test]
fn the_architecture_page_draws_the_graph_cargo_metadata_shows() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let document = std::fs::read_to_string(workspace.join("docs/architecture.md")).unwrap();
    let drawn = from_document(&document);
    let actual = from_cargo(&workspace);

    let drawn_graph: Graph = drawn.iter().cloned().collect();
    assert_eq!(
        drawn_graph, actual,
        "docs/architecture.md's graph (left) differs from cargo metadata (right)"
    );
    // Bottom up: each crate depends only on crates drawn above it.
    let mut above = BTreeSet::new();
    for (name, dependencies) in &drawn {
        let upwards: Vec<_> = dependencies.difference(&above).collect();
        assert!(
            upwards.is_empty(),
            "{name} depends on {upwards:?}, drawn below it (or on itself)"
        );
        above.insert(name.clone());
    }
}
