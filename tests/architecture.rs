//! The house rules of the workspace that a compiler does not check: `core`
//! (`crates/core`) depends on nothing of the web, the terminal or the network,
//! the runner and the mock do not depend on the page, and `core`'s imports
//! run down its layer table, with no circle between its modules (DESIGN.md
//! section 8: data flows one way); every function of `core` and `chart` is
//! `#[cfg_attr(target_arch = "wasm32", inline)]`, so that the page compiles
//! their code in its own codegen unit (docs/size.md, "the crate split") and
//! native builds compile it once.
//!
//! Every `super::…` and `crate::…` path in a module's non-test code is
//! an edge to the module it names (the longest prefix that is a file). Edges
//! between a module and its own submodules are left out: a submodule using
//! its parent's types is how Rust nests, not a circle between concerns.

#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// `core`'s modules: module path → file.
fn modules(root: &Path) -> BTreeMap<Vec<String>, PathBuf> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().and_then(|e| e.to_str()) != Some("rs") {
                continue;
            }
            let relative = path.strip_prefix(root).unwrap();
            // The crate root only declares modules (a binary's root is another
            // crate); the fixtures are test code.
            if ["lib.rs", "main.rs", "fixtures.rs"]
                .iter()
                .any(|root_file| relative == Path::new(root_file))
            {
                continue;
            }
            let mut parts: Vec<String> = relative
                .iter()
                .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_owned())
                .collect();
            if parts.last().is_some_and(|last| last == "mod") {
                parts.pop();
            }
            out.insert(parts, path);
        }
    }
    out
}

/// The code before the file's unit tests, without comments (a doc link
/// names a module without depending on it).
fn non_test_code(text: &str) -> String {
    let code = text
        .find("#[cfg(test)]\nmod tests")
        .or_else(|| text.find("#[cfg(test)]\nmod test_support"))
        .map_or(text, |end| &text[..end]);
    code.lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths a module's code names, each as segments after `super` /
/// `crate`, with braces of grouped imports expanded one level.
fn named_paths(code: &str) -> Vec<(bool, Vec<String>)> {
    let mut out = Vec::new();
    for (prefix, is_super) in [("super::", true), ("crate::", false)] {
        let mut rest = code;
        while let Some(at) = rest.find(prefix) {
            let before = rest[..at].chars().last();
            rest = &rest[at + prefix.len()..];
            // `crate::` inside a longer path (`$crate::`) or `super::` preceded by an identifier character is not a root.
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            if let Some(group) = rest.strip_prefix('{') {
                let end = group.find('}').unwrap_or(group.len());
                for item in group[..end].split(',') {
                    let segments = segments_of(item.trim());
                    if !segments.is_empty() {
                        out.push((is_super, segments));
                    }
                }
            } else {
                let segments = segments_of(rest);
                if !segments.is_empty() {
                    out.push((is_super, segments));
                }
            }
        }
    }
    out
}

fn segments_of(text: &str) -> Vec<String> {
    let path: String = text
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
        .collect();
    path.split("::")
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

fn is_within(a: &[String], b: &[String]) -> bool {
    a.len() >= b.len() && a[..b.len()] == *b
}

/// Every import edge between `core`'s modules (a module's edges to its own
/// submodules and parent left out).
fn core_edges() -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    import_edges("crates/core/src", 50)
}

/// Every import edge between the modules of the crate whose sources are in
/// `src` (relative to the workspace), a module's edges to its own submodules
/// and parent left out; at least `min_edges` of them, or the scan is not
/// reading the code.
fn import_edges(src: &str, min_edges: usize) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(src);
    let modules = modules(&root);
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (module, path) in &modules {
        edges.entry(module.clone()).or_default();
        let text = std::fs::read_to_string(path).unwrap();
        for (is_super, segments) in named_paths(&non_test_code(&text)) {
            let mut full = if is_super {
                module[..module.len().saturating_sub(1)].to_vec()
            } else {
                Vec::new()
            };
            full.extend(segments);
            // The longest prefix that is a module.
            let target = (1..=full.len())
                .rev()
                .map(|n| full[..n].to_vec())
                .find(|prefix| modules.contains_key(prefix));
            let Some(target) = target else { continue };
            if is_within(&target, module) || is_within(module, &target) {
                continue;
            }
            edges.entry(module.clone()).or_default().insert(target);
        }
    }
    assert!(
        edges.values().map(BTreeSet::len).sum::<usize>() > min_edges,
        "the scan of {src} found too few imports to be reading the code"
    );
    edges
}

/// The circles among `edges`, each as "a → b → a".
fn circles(edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<String> {
    // Depth-first search for a back edge, reporting the circle it closes.
    fn visit(
        node: &Vec<String>,
        edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        state: &mut BTreeMap<Vec<String>, u8>,
        path: &mut Vec<Vec<String>>,
        circles: &mut Vec<String>,
    ) {
        state.insert(node.clone(), 1);
        path.push(node.clone());
        for next in edges.get(node).into_iter().flatten() {
            match state.get(next).copied().unwrap_or(0) {
                0 => visit(next, edges, state, path, circles),
                1 => {
                    let start = path.iter().position(|n| n == next).unwrap();
                    let mut names: Vec<String> =
                        path[start..].iter().map(|n| n.join("::")).collect();
                    names.push(next.join("::"));
                    circles.push(names.join(" → "));
                }
                _ => {}
            }
        }
        path.pop();
        state.insert(node.clone(), 2);
    }
    let mut state = BTreeMap::new();
    let mut circles = Vec::new();
    for module in edges.keys() {
        if state.get(module).copied().unwrap_or(0) == 0 {
            visit(module, edges, &mut state, &mut Vec::new(), &mut circles);
        }
    }
    circles
}

#[test]
fn core_has_no_import_circle() {
    let circles = circles(&core_edges());
    assert!(
        circles.is_empty(),
        "import circles in core:\n{}",
        circles.join("\n")
    );
}

/// The mock's modules import one another one way only: a circle (of any
/// length) between, say, the scripts and the prefill draws means neither can
/// be read or changed alone (`mock::leaf` holds what several of them share).
#[test]
fn the_mock_has_no_import_circle() {
    let edges = import_edges("mock/src", 10);
    let circles = circles(&edges);
    assert!(
        circles.is_empty(),
        "import circles in the mock:\n{}",
        circles.join("\n")
    );
}

/// `core`'s domains, bottom to top (the table in `crates/core/src/lib.rs`):
/// a module may import from its own layer and the layers below, never
/// from above. A submodule sits in its parent's layer unless it is listed
/// itself (`text`'s words sit where their imports put them); a top-level
/// module missing from the table fails [`core_imports_run_down_the_layer_table`].
const LAYERS: &[(&str, &[&str])] = &[
    (
        "base",
        &[
            "document",
            "failure",
            "origin",
            "price",
            "peak",
            "calendar",
            "text::lang",
            "text::printable",
        ],
    ),
    (
        "stats",
        &["stats", "quantile", "bootstrap", "dependence", "binomial"],
    ),
    (
        "words",
        &[
            "text::format",
            "text::refusal",
            "text::plan_problem",
            "text::notice",
            "text::report_words",
            "text::page",
            "text::dashboard",
        ],
    ),
    (
        "plan and probes",
        &[
            "plan",
            "plan_flags",
            "presets",
            "context_window",
            "key_rules",
            "fidelity",
            "fidelity::suite",
            "fidelity::reply",
            "fidelity::verify",
            "schedule",
            "prompt",
        ],
    ),
    (
        "wire",
        &[
            "sse",
            "protocol",
            "measure",
            "stream_shape",
            "ratelimit",
            "demo",
            "sample",
        ],
    ),
    (
        "judgement",
        &[
            "population",
            "verdict",
            "slow",
            "tail",
            "settings",
            "delivery",
            "cache",
            "cost",
            "timeofday",
            "compare",
            "report",
            "objective",
            "prefill",
            "fidelity::score",
            "text::verdict",
            "text::comparison",
            "text::routing",
        ],
    ),
    (
        "documents",
        &[
            "results",
            "publish",
            "dashboard",
            "routing_config",
            "run",
            "hostile",
        ],
    ),
    (
        "text",
        &["text", "text::fidelity", "metamorphic", "prefill::tests"],
    ),
];

/// The layer of `module`: that of its longest listed prefix, or `None`
/// when not even its top-level module is listed.
fn layer_of(module: &[String]) -> Option<usize> {
    (1..=module.len()).rev().find_map(|n| {
        let path = module[..n].join("::");
        LAYERS
            .iter()
            .position(|(_, modules)| modules.contains(&path.as_str()))
    })
}

/// Every edge that runs up the table, as "a (layer) → b (layer)".
fn upward_edges(edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<String> {
    let mut up = Vec::new();
    for (from, targets) in edges {
        let Some(from_layer) = layer_of(from) else {
            continue;
        };
        for to in targets {
            if let Some(to_layer) = layer_of(to)
                && to_layer > from_layer
            {
                up.push(format!(
                    "{} ({}) → {} ({})",
                    from.join("::"),
                    LAYERS[from_layer].0,
                    to.join("::"),
                    LAYERS[to_layer].0
                ));
            }
        }
    }
    up
}

#[test]
fn core_imports_run_down_the_layer_table() {
    let edges = core_edges();
    let unlisted: Vec<String> = edges
        .keys()
        .filter(|module| layer_of(module).is_none())
        .map(|module| module.join("::"))
        .collect();
    assert!(
        unlisted.is_empty(),
        "modules missing from the layer table (tests/architecture.rs and crates/core/src/lib.rs): {unlisted:?}"
    );
    let up = upward_edges(&edges);
    assert!(
        up.is_empty(),
        "imports that run up the layer table:\n{}",
        up.join("\n")
    );
}

#[test]
fn an_import_up_the_table_is_caught() {
    let mut edges = core_edges();
    let stats = vec!["stats".to_owned()];
    let report = vec!["report".to_owned()];
    edges.entry(stats).or_default().insert(report);
    assert_eq!(
        upward_edges(&edges),
        vec!["stats (stats) → report (judgement)".to_owned()]
    );
    assert_eq!(layer_of(&["no_such_module".to_owned()]), None);
    assert_eq!(
        layer_of(&[
            "fidelity".to_owned(),
            "score".to_owned(),
            "simulation".to_owned()
        ]),
        layer_of(&["report".to_owned()])
    );
}

/// The names in a manifest's `[dependencies]` table (not dev- or build-).
fn dependencies(manifest: &str) -> BTreeSet<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(manifest);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut names = BTreeSet::new();
    let mut inside = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == "[dependencies]";
            continue;
        }
        if inside
            && !line.starts_with('#')
            && let Some((name, _)) = line.split_once('=')
        {
            names.insert(name.trim().to_owned());
        }
    }
    names
}

#[test]
fn core_depends_only_on_what_computing_needs() {
    let allowed: BTreeSet<String> = [
        "serde",
        "serde_json",
        "serde_path_to_error",
        "base64",
        "fastrand",
    ]
    .map(str::to_owned)
    .into();
    let names = dependencies("crates/core/Cargo.toml");
    assert!(
        names.contains("serde"),
        "the scan found no dependency: {names:?}"
    );
    let extra: Vec<_> = names.difference(&allowed).collect();
    assert!(
        extra.is_empty(),
        "core depends on {extra:?}; it holds only what computes (no web, terminal or network)"
    );
}

#[test]
fn the_runner_and_the_mock_do_not_depend_on_the_page() {
    for manifest in [
        "cli/Cargo.toml",
        "mock/Cargo.toml",
        "crates/chart/Cargo.toml",
    ] {
        let names = dependencies(manifest);
        assert!(names.contains("firsttoken-core"), "{manifest}: {names:?}");
        assert!(
            !names.contains("firsttoken"),
            "{manifest} depends on the page crate"
        );
    }
}

/// The attribute every function of `core` and `chart` carries: inline for
/// the page's wasm only. Native code needs no hint: the runner's binaries
/// get LTO, and a plain `#[inline]` makes every crate and test binary that
/// calls a function compile it again (a clean `cargo test --workspace`
/// took 413.6 s of CPU with it, 287.6 s without; docs/size.md).
const WASM_INLINE: &str = "#[cfg_attr(target_arch = \"wasm32\", inline)]";

/// The functions of a source file's code before its first `#[cfg(test)]`
/// that have a body and not [`WASM_INLINE`] among their attributes, as
/// their signature's first line.
fn functions_without_inline(text: &str) -> Vec<String> {
    // Test code ends the scan: a `#[cfg(test)]` block, or a whole file
    // compiled for tests only (`#![cfg(test)]`).
    let end = [text.find("#[cfg(test)]"), text.find("#![cfg(test)]")]
        .into_iter()
        .flatten()
        .min();
    let code = end.map_or(text, |end| &text[..end]);
    let lines: Vec<&str> = code.lines().collect();
    let mut out = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(fn_at) = words.iter().position(|word| *word == "fn") else {
            continue;
        };
        let qualifiers = &words[..fn_at];
        if !qualifiers
            .iter()
            .all(|word| word.starts_with("pub") || ["const", "async", "unsafe"].contains(word))
        {
            continue;
        }
        // A body, or only a signature (a trait's required method)?
        let mut depth = 0i32;
        let mut body = None;
        'scan: for rest in lines[at..].iter() {
            for ch in rest.chars() {
                match ch {
                    '(' | '[' => depth += 1,
                    ')' | ']' => depth -= 1,
                    '{' | ';' if depth == 0 => {
                        body = Some(ch == '{');
                        break 'scan;
                    }
                    _ => {}
                }
            }
        }
        if body != Some(true) {
            continue;
        }
        let inline = lines[..at]
            .iter()
            .rev()
            .map(|above| above.trim())
            .take_while(|above| above.starts_with("#[") || above.starts_with("//"))
            .any(|above| above == WASM_INLINE);
        if !inline {
            out.push(line.trim().to_owned());
        }
    }
    out
}

/// The page is one codegen unit with its dependencies' generic and inline
/// code; a function of `core` or `chart` not inline on wasm is compiled in
/// that crate's own unit instead, where LLVM inlines and duplicates
/// differently, and `lto` does not join them (Cargo skips LTO for the
/// page's `cdylib` + `rlib`). Measured in docs/size.md: the split without
/// `#[inline]` cost 20.5 kB gzip. A plain `#[inline]` fails too: it is
/// the same for the page and recompiles the function natively in every
/// crate and test binary that calls it.
#[test]
fn every_function_of_core_and_chart_is_inline() {
    let mut missing = Vec::new();
    let mut seen = 0;
    for root in ["crates/core/src", "crates/chart/src"] {
        for path in modules(Path::new(root)).into_values() {
            let text = std::fs::read_to_string(&path).unwrap();
            seen += text.matches("fn ").count();
            for signature in functions_without_inline(&text) {
                missing.push(format!("{}: {signature}", path.display()));
            }
        }
    }
    assert!(seen > 100, "the scan found almost no function: {seen}");
    assert!(
        missing.is_empty(),
        "functions without {WASM_INLINE} (docs/size.md, \"the crate split\"):\n{}",
        missing.join("\n")
    );
}
