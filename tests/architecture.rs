//! The house rules of the workspace that a compiler does not check
//! (docs/architecture.md draws the house they keep):
//!
//! - `core` (`crates/core`) depends on nothing of the web, the terminal or
//!   the network, and the runner and the mock do not depend on the page;
//! - `core`'s folders are its layers: the order of the layers is written
//!   once, in the "# Layers" list of `crates/core/src/lib.rs`, and a
//!   module's layer is the folder it lives in (docs/architecture.md's table
//!   of them is checked against the folders). A module imports from its own
//!   layer and those below, never from above. No import is exempt, a
//!   module's own parent and children included; with the folders as the
//!   layers a child sits in its parent's layer, so the two can only meet
//!   the rule;
//! - no two modules of any crate (core, chart, the page's library `src/`,
//!   the runner, the mock) import each other round a circle;
//! - every function of `core` and `chart` is
//!   `#[cfg_attr(target_arch = "wasm32", inline)]`, so that the page
//!   compiles their code in its own codegen unit (docs/size.md, "the crate
//!   split") and native builds compile it once.
//!
//! # What an import is
//!
//! Every `crate::…` and `super::…` path in a module's code before its unit
//! tests is an edge to the module it names (the longest prefix that is a
//! file), and so is a parent's `child::…` or `self::child::…` path to its
//! own submodule. Comments do not count (a doc link names a module without
//! depending on it), nor do files compiled for tests only (a file declared
//! under `#[cfg(test)]`, such as `judgement/prefill/tests.rs`: a test may
//! build anything). Inside core no path may name a module at the root
//! without its layer (`crate::plan`): each module has one path, its
//! layer's, and a path that named none would hide its layer from this scan.
//!
//! # A parent and its own submodule
//!
//! Rust nests: a submodule sees its parent's private items and names its
//! types (`use super::Plan`), and the parent makes one face of its files by
//! declaring and re-exporting them (`pub use rules::OverWindow`). For
//! circles, the edge from a module up to its own ancestor is left out and
//! the edge down from the parent is kept. A child reading its parent's
//! types is one concern split into files, not a circle between concerns;
//! but a parent's face holds its child, so whoever imports the parent
//! depends on the child too. Keeping the downward edge catches the circle
//! that leaves the family and comes back through its face: the scan that
//! left out both directions missed `plan → plan::rules → prompt → plan` and
//! `report → prefill → prefill::summary → report`, since mended (the plan's
//! sizes moved into `planning::plan::sizes`, the prompt-size results beside
//! the fit in `judgement::prefill_report`).
//!
//! # Checked by breaking it
//!
//! Each rule was seen to fail before it was trusted, and the line was then
//! removed:
//!
//! - `use crate::judgement::report::Report;` in `statistics/stats.rs` failed
//!   [`core_imports_run_down_the_layers`] with "statistics::stats
//!   (statistics) → judgement::report (judgement)", and
//!   [`no_crate_has_an_import_circle`] with a knot of 28 modules
//!   (`judgement::cache → statistics::stats → judgement::report →
//!   judgement::cache`, …);
//! - `use crate::planning::schedule::Schedule;` in `planning/plan.rs` (one
//!   layer, no upward import) failed the circle check with
//!   `planning::plan → planning::schedule → planning::plan`;
//! - `use crate::ui::run::driver::Driver;` in the page's `src/browser/timer.rs`
//!   failed it with `browser::demo → browser::timer → ui::run::driver →
//!   browser::fetch_stream → browser::demo`;
//! - `use crate::plan::Plan;` in `wire/sample.rs` failed
//!   [`core_names_modules_by_their_layer`].
//!
//! [`an_import_up_the_layers_is_caught`] and [`a_circle_is_caught`] keep
//! the checker itself honest on made-up edges. Before the layer folders the
//! same scan counted, in core, 76 modules, 273 imports, 2 upward (`text::notice` and
//! `text::page` importing their parent `text`, which the old scan exempted)
//! and 2 circles, and in the page one circle of 6 modules (`ui::run::lazy`,
//! `ui::run::driver`, `ui::model::state::page`, `ui::pages::dashboard_view`,
//! `ui::pages::results_view`, `ui::pages::run_view`); the tests print today's counts
//! (`cargo test --test architecture -- --nocapture`).

#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module path inside its crate (`["planning", "plan", "read"]`).
type Module = Vec<String>;
/// Every module's imports: module → the modules it names.
type Edges = BTreeMap<Module, BTreeSet<Module>>;

/// The crates whose modules must not form an import circle, as their
/// source folders, each with the fewest import edges its scan must find
/// (fewer means the scan is not reading the code).
const CRATES: &[(&str, usize)] = &[
    ("crates/core/src", 150),
    ("crates/chart/src", 10),
    ("src", 50),
    ("cli/src", 15),
    ("mock/src", 10),
];

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The modules of the crate whose sources are under `root`: module path →
/// file. The crate roots (`lib.rs`, `main.rs`) are left out: a binary's
/// root is another crate, and a library's root only declares and
/// re-exports. With `with_tests`, files compiled for tests only are kept.
fn modules_of(root: &Path, with_tests: bool) -> BTreeMap<Module, PathBuf> {
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
            if relative == Path::new("lib.rs") || relative == Path::new("main.rs") {
                continue;
            }
            let mut parts: Module = relative
                .iter()
                .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_owned())
                .collect();
            if parts.last().is_some_and(|last| last == "mod") {
                parts.pop();
            }
            if with_tests || !is_test_only(root, &parts) {
                out.insert(parts, path);
            }
        }
    }
    out
}

fn modules(root: &Path) -> BTreeMap<Module, PathBuf> {
    modules_of(root, false)
}

/// The file that declares `module`: its parent's file, or the crate root.
fn declaring_file(root: &Path, module: &[String]) -> Option<PathBuf> {
    let parent = &module[..module.len() - 1];
    let candidates = if parent.is_empty() {
        vec![root.join("lib.rs"), root.join("main.rs")]
    } else {
        let dir: PathBuf = parent.iter().collect();
        vec![
            root.join(&dir).with_extension("rs"),
            root.join(&dir).join("mod.rs"),
        ]
    };
    candidates.into_iter().find(|path| path.exists())
}

/// Whether `module` is declared under `#[cfg(test)]` (or in a file that is
/// itself test code), so compiled for tests only.
fn is_test_only(root: &Path, module: &[String]) -> bool {
    let Some(parent) = declaring_file(root, module) else {
        return false;
    };
    let name = module.last().unwrap();
    let text = std::fs::read_to_string(parent).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let declared = lines.iter().position(|line| {
        let line = line.trim();
        let line = line.strip_prefix("pub ").unwrap_or(line);
        let line = line.strip_prefix("pub(crate) ").unwrap_or(line);
        line == format!("mod {name};")
    });
    let Some(at) = declared else {
        return false;
    };
    let test_attribute = lines[..at]
        .iter()
        .rev()
        .map(|line| line.trim())
        .take_while(|line| line.starts_with("#["))
        .any(|line| line == "#[cfg(test)]");
    test_attribute || (module.len() > 1 && is_test_only(root, &module[..module.len() - 1]))
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

/// How a path a module names starts.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Root {
    /// `crate::…`
    Crate,
    /// `super::…`, relative to the module's parent.
    Super,
    /// `child::…` or `self::child::…`, relative to the module itself.
    Own,
}

/// The paths after `prefix` in `code` (not inside a longer path), each as
/// its segments, with braces of grouped imports expanded one level.
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find(prefix) {
        let before = rest[..at].chars().last();
        rest = &rest[at + prefix.len()..];
        // `$crate::`, `foo::super::` or `std::fmt::child::` is not a root.
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == ':') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let segments = segments_of(item.trim());
                if !segments.is_empty() {
                    out.push(segments);
                }
            }
        } else {
            let segments = segments_of(rest);
            if !segments.is_empty() {
                out.push(segments);
            }
        }
    }
    out
}

/// The paths a module's code names, each with how it starts. `children`
/// are the names of the module's own submodules.
fn named_paths(code: &str, children: &[String]) -> Vec<(Root, Vec<String>)> {
    let mut out = Vec::new();
    for segments in paths_after(code, "crate::") {
        out.push((Root::Crate, segments));
    }
    for segments in paths_after(code, "super::") {
        out.push((Root::Super, segments));
    }
    for child in children {
        for prefix in [format!("{child}::"), format!("self::{child}::")] {
            for mut segments in paths_after(code, &prefix) {
                segments.insert(0, child.clone());
                out.push((Root::Own, segments));
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

/// Whether `a` is `b` or inside it.
fn is_within(a: &[String], b: &[String]) -> bool {
    a.len() >= b.len() && a[..b.len()] == *b
}

/// The absolute module path a path named in `module` points at.
fn resolve(module: &[String], root: Root, segments: &[String]) -> Vec<String> {
    let mut base: Vec<String> = match root {
        Root::Crate => Vec::new(),
        Root::Super => module[..module.len().saturating_sub(1)].to_vec(),
        Root::Own => module.to_vec(),
    };
    let mut rest = segments;
    // `super::super::x`
    while let Some((first, tail)) = rest.split_first() {
        if first != "super" {
            break;
        }
        base.pop();
        rest = tail;
    }
    base.extend(rest.iter().cloned());
    base
}

/// The imports of one crate's modules, and the `crate::…` paths whose
/// first segment is no module (a re-export at the root, an external crate
/// renamed there, a macro), as "module: path".
struct Scan {
    modules: BTreeMap<Module, PathBuf>,
    edges: Edges,
    through_root: Vec<String>,
}

/// Every import edge between the modules of the crate whose sources are in
/// `src` (relative to the workspace); at least `min_edges` of them, or the
/// scan is not reading the code.
fn scan(src: &str, min_edges: usize) -> Scan {
    let root = workspace().join(src);
    let modules = modules(&root);
    let mut edges = Edges::new();
    let mut through_root = Vec::new();
    for (module, path) in &modules {
        edges.entry(module.clone()).or_default();
        let children: Vec<String> = modules
            .keys()
            .filter(|other| other.len() == module.len() + 1 && is_within(other, module))
            .map(|child| child.last().unwrap().clone())
            .collect();
        let text = std::fs::read_to_string(path).unwrap();
        for (how, segments) in named_paths(&non_test_code(&text), &children) {
            let full = resolve(module, how, &segments);
            // The longest prefix that is a module.
            let target = (1..=full.len())
                .rev()
                .map(|n| full[..n].to_vec())
                .find(|prefix| modules.contains_key(prefix));
            let Some(target) = target else {
                if how == Root::Crate {
                    through_root.push(format!("{}: crate::{}", module.join("::"), full.join("::")));
                }
                continue;
            };
            if target != *module {
                edges.entry(module.clone()).or_default().insert(target);
            }
        }
    }
    let count = edge_count(&edges);
    assert!(
        count >= min_edges,
        "the scan of {src} found {count} imports, fewer than {min_edges}: it is not reading the code"
    );
    Scan {
        modules,
        edges,
        through_root,
    }
}

fn edge_count(edges: &Edges) -> usize {
    edges.values().map(BTreeSet::len).sum()
}

/// The edges that count for circles: all but those from a module up to
/// its own ancestor (see the module's doc, "A parent and its own
/// submodule").
fn circle_edges(edges: &Edges) -> Edges {
    edges
        .iter()
        .map(|(from, targets)| {
            let kept = targets
                .iter()
                .filter(|to| !is_within(from, to))
                .cloned()
                .collect();
            (from.clone(), kept)
        })
        .collect()
}

/// The circles among `edges` (ancestor edges left out): each set of
/// modules that all reach one another (a strongly connected component of
/// more than one module), as one of its circles, shortest first from its
/// first module, and its members: "a → b → a (a, b)".
fn circles(edges: &Edges) -> Vec<String> {
    let edges = circle_edges(edges);
    components(&edges)
        .into_iter()
        .filter(|members| members.len() > 1)
        .map(|members| {
            let path = shortest_circle(&edges, &members);
            let names: Vec<String> = path.iter().map(|m| m.join("::")).collect();
            let all: Vec<String> = members.iter().map(|m| m.join("::")).collect();
            format!("{} ({})", names.join(" → "), all.join(", "))
        })
        .collect()
}

/// The strongly connected components of `edges` (Tarjan's algorithm), each
/// sorted.
fn components(edges: &Edges) -> Vec<Vec<Module>> {
    struct Walk<'a> {
        edges: &'a Edges,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        on_stack: BTreeSet<&'a Module>,
        out: Vec<Vec<Module>>,
    }
    fn visit<'a>(walk: &mut Walk<'a>, node: &'a Module) {
        let at = walk.index.len();
        walk.index.insert(node, at);
        walk.low.insert(node, at);
        walk.stack.push(node);
        walk.on_stack.insert(node);
        for next in walk.edges.get(node).into_iter().flatten() {
            if !walk.index.contains_key(next) {
                visit(walk, next);
                let low = walk.low[node].min(walk.low[next]);
                walk.low.insert(node, low);
            } else if walk.on_stack.contains(next) {
                let low = walk.low[node].min(walk.index[next]);
                walk.low.insert(node, low);
            }
        }
        if walk.low[node] == walk.index[node] {
            let mut members = Vec::new();
            while let Some(top) = walk.stack.pop() {
                walk.on_stack.remove(top);
                members.push(top.clone());
                if top == node {
                    break;
                }
            }
            members.sort();
            walk.out.push(members);
        }
    }
    let mut walk = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for node in edges.keys() {
        if !walk.index.contains_key(node) {
            visit(&mut walk, node);
        }
    }
    walk.out.sort();
    walk.out
}

/// A shortest circle through the first of `members` inside them, as the
/// path from it back to it.
fn shortest_circle(edges: &Edges, members: &[Module]) -> Vec<Module> {
    let start = &members[0];
    let inside: BTreeSet<&Module> = members.iter().collect();
    let mut came_from: BTreeMap<&Module, &Module> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(node) = queue.pop_front() {
        for next in edges.get(node).into_iter().flatten() {
            if !inside.contains(next) || came_from.contains_key(next) {
                continue;
            }
            came_from.insert(next, node);
            if next == start {
                let mut path = vec![start.clone()];
                let mut at = came_from[start];
                while at != start {
                    path.push(at.clone());
                    at = came_from[at];
                }
                path.push(start.clone());
                path.reverse();
                return path;
            }
            queue.push_back(next);
        }
    }
    unreachable!("a component of more than one module holds a circle")
}

#[test]
fn no_crate_has_an_import_circle() {
    let mut found = Vec::new();
    for (src, min_edges) in CRATES {
        let scan = scan(src, *min_edges);
        let circles = circles(&scan.edges);
        println!(
            "{src}: {} modules, {} import edges, {} circles",
            scan.modules.len(),
            edge_count(&scan.edges),
            circles.len()
        );
        found.extend(circles.into_iter().map(|circle| format!("{src}: {circle}")));
    }
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

/// Core's layers, bottom to top, as written in the "# Layers" list of
/// `crates/core/src/lib.rs` (`//! 1. [`base`]: …`).
fn layer_order() -> Vec<String> {
    let lib = std::fs::read_to_string(workspace().join("crates/core/src/lib.rs")).unwrap();
    let list = lib
        .split("//! # Layers")
        .nth(1)
        .expect("crates/core/src/lib.rs has a \"# Layers\" section");
    let mut order = Vec::new();
    for line in list.lines().skip(1) {
        let Some(doc) = line.strip_prefix("//!") else {
            break;
        };
        let doc = doc.trim();
        if doc.starts_with('#') {
            break;
        }
        let Some((number, rest)) = doc.split_once(". [`") else {
            continue;
        };
        if number.parse::<usize>() != Ok(order.len() + 1) {
            continue;
        }
        order.push(rest.split('`').next().unwrap().to_owned());
    }
    order
}

/// The layer of `module`: the position of its folder in `order`.
fn layer_of(order: &[String], module: &[String]) -> Option<usize> {
    order.iter().position(|layer| Some(layer) == module.first())
}

/// Every edge that runs up the layers, as "a (layer) → b (layer)".
fn upward_edges(order: &[String], edges: &Edges) -> Vec<String> {
    let mut up = Vec::new();
    for (from, targets) in edges {
        let Some(from_layer) = layer_of(order, from) else {
            continue;
        };
        for to in targets {
            if let Some(to_layer) = layer_of(order, to)
                && to_layer > from_layer
            {
                up.push(format!(
                    "{} ({}) → {} ({})",
                    from.join("::"),
                    order[from_layer],
                    to.join("::"),
                    order[to_layer]
                ));
            }
        }
    }
    up
}

#[test]
fn cores_folders_are_its_layers() {
    let order = layer_order();
    assert!(order.len() >= 5, "the layers read from lib.rs: {order:?}");
    let root = workspace().join("crates/core/src");
    let mut folders = BTreeSet::new();
    let mut loose = Vec::new();
    for entry in std::fs::read_dir(&root).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            folders.insert(name);
        } else if name != "lib" && !root.join(&name).is_dir() {
            loose.push(name);
        }
    }
    assert!(
        loose.is_empty(),
        "modules of core outside a layer folder: {loose:?}"
    );
    let listed: BTreeSet<String> = order.iter().cloned().collect();
    assert_eq!(
        folders, listed,
        "the folders of crates/core/src and the layers listed in its lib.rs differ"
    );
}

#[test]
fn core_imports_run_down_the_layers() {
    let order = layer_order();
    let scan = scan("crates/core/src", 150);
    let unplaced: Vec<String> = scan
        .edges
        .keys()
        .filter(|module| layer_of(&order, module).is_none())
        .map(|module| module.join("::"))
        .collect();
    assert!(unplaced.is_empty(), "modules in no layer: {unplaced:?}");
    let up = upward_edges(&order, &scan.edges);
    println!(
        "crates/core/src: {} layers, {} modules, {} import edges, {} upward",
        order.len(),
        scan.modules.len(),
        edge_count(&scan.edges),
        up.len()
    );
    assert!(
        up.is_empty(),
        "imports that run up the layers:\n{}",
        up.join("\n")
    );
}

/// Inside core a module names another by its layer (`crate::planning::plan`),
/// its one path, never by a path at the root that names no layer
/// (`crate::plan`), which would hide the import from
/// [`core_imports_run_down_the_layers`].
#[test]
fn core_names_modules_by_their_layer() {
    let scan = scan("crates/core/src", 150);
    assert!(
        scan.through_root.is_empty(),
        "paths inside core that name no layer:\n{}",
        scan.through_root.join("\n")
    );
}

fn module(path: &str) -> Module {
    path.split("::").map(str::to_owned).collect()
}

#[test]
fn an_import_up_the_layers_is_caught() {
    let order = layer_order();
    let mut edges = scan("crates/core/src", 150).edges;
    edges
        .entry(module("statistics::stats"))
        .or_default()
        .insert(module("judgement::report"));
    assert_eq!(
        upward_edges(&order, &edges),
        vec!["statistics::stats (statistics) → judgement::report (judgement)".to_owned()]
    );
    assert_eq!(layer_of(&order, &module("no_such_layer::x")), None);
}

#[test]
fn a_circle_is_caught() {
    fn add(edges: &mut Edges, from: &str, to: &str) {
        edges.entry(module(from)).or_default().insert(module(to));
    }
    let mut edges = Edges::new();
    // A child reading its parent's types, the parent re-exporting it: no circle.
    add(&mut edges, "plan::read", "plan");
    add(&mut edges, "plan", "plan::read");
    add(&mut edges, "schedule", "plan");
    assert!(circles(&edges).is_empty(), "{:?}", circles(&edges));
    // Leaving the family and coming back through the parent's face is one.
    add(&mut edges, "plan::read", "schedule");
    assert_eq!(
        circles(&edges),
        vec!["plan → plan::read → schedule → plan (plan, plan::read, schedule)".to_owned()]
    );
    // And so is a plain circle of three.
    let mut edges = Edges::new();
    for (from, to) in [("a", "b"), ("b", "c"), ("c", "a")] {
        add(&mut edges, from, to);
    }
    assert_eq!(circles(&edges), vec!["a → b → c → a (a, b, c)".to_owned()]);
    // Two circles sharing a module are one knot, said once with all of it.
    add(&mut edges, "b", "d");
    add(&mut edges, "d", "b");
    assert_eq!(
        circles(&edges),
        vec!["a → b → c → a (a, b, c, d)".to_owned()]
    );
}

/// docs/architecture.md lists each layer's modules, in lib.rs's order of
/// the layers, and draws the layers as one chain: both are checked against
/// the folders and that order, so the document cannot drift from them.
#[test]
fn the_architecture_document_lists_each_layers_modules() {
    let order = layer_order();
    let doc = std::fs::read_to_string(workspace().join("docs/architecture.md")).unwrap();
    let root = workspace().join("crates/core/src");
    let modules = modules_of(&root, true);
    // The picture's chain of layers and the table's rows go in lib.rs's order.
    let below_testing: Vec<&str> = order
        .iter()
        .map(String::as_str)
        .filter(|layer| *layer != "testing")
        .collect();
    let chain = format!("    {}", below_testing.join(" --> "));
    assert!(
        doc.lines().any(|line| line == chain),
        "docs/architecture.md's picture has no line {chain:?}"
    );
    let rows: Vec<&str> = doc
        .lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|rest| rest.split_once("` |").map(|(name, _)| name))
        .filter(|name| order.iter().any(|layer| layer == name))
        .collect();
    assert_eq!(
        rows, order,
        "docs/architecture.md's layer rows are not in lib.rs's order"
    );
    for layer in &order {
        let row_start = format!("| `{layer}` |");
        let row = doc
            .lines()
            .find(|line| line.starts_with(&row_start))
            .unwrap_or_else(|| panic!("docs/architecture.md has no row {row_start}"));
        let listed: BTreeSet<String> = row
            .split('|')
            .nth(2)
            .unwrap()
            .split(',')
            .map(|name| name.trim().trim_matches('`').to_owned())
            .filter(|name| !name.is_empty())
            .collect();
        let actual: BTreeSet<String> = modules
            .keys()
            .filter(|module| module.len() == 2 && module[0] == *layer)
            .map(|module| module[1].clone())
            .collect();
        assert_eq!(
            listed, actual,
            "docs/architecture.md's row for `{layer}` and the folder crates/core/src/{layer}/ differ"
        );
    }
}

/// The names in a manifest's `[dependencies]` table (not dev- or build-).
fn dependencies(manifest: &str) -> BTreeSet<String> {
    let path = workspace().join(manifest);
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
    let allowed: BTreeSet<String> = ["serde", "serde_json", "base64", "fastrand"]
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
        // Test code (core's `testing` layer) needs no hint.
        let scanned = modules(&workspace().join(root))
            .into_iter()
            .filter(|(module, _)| module.first().is_none_or(|first| first != "testing"));
        for (_, path) in scanned {
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

/// Test code carries no wasm `inline` hint: it never reaches the page, and
/// a hint there only says it might (issue 49 counted 43). Checked over
/// every module of `core` and `chart` compiled for tests only, and over the
/// unit tests at the end of every other file.
#[test]
fn test_code_carries_no_wasm_inline_hint() {
    let mut found = Vec::new();
    for root in ["crates/core/src", "crates/chart/src"] {
        let root = workspace().join(root);
        for (module, path) in modules_of(&root, true) {
            let text = std::fs::read_to_string(&path).unwrap();
            let test_code = if is_test_only(&root, &module) || text.starts_with("#![cfg(test)]") {
                text.as_str()
            } else {
                text.find("#[cfg(test)]").map_or("", |at| &text[at..])
            };
            let hints = test_code.matches(WASM_INLINE).count();
            if hints > 0 {
                found.push(format!("{}: {hints}", path.display()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "{WASM_INLINE} on test code:\n{}",
        found.join("\n")
    );
}

/// No sentence holds a run of spaces where a line of its source was
/// joined without a `\` continuation: a string literal broken across
/// source lines keeps the next line's indentation ("the line,
/// carried back" printed with 17 spaces in the terminal). Each string
/// literal of every crate's sources is read on its own line; escaped
/// documents (`\n`, `\"`) are left out.
#[test]
fn no_string_literal_holds_a_source_line_s_indentation() {
    let roots = [
        "crates/core/src",
        "crates/chart/src",
        "cli/src",
        "src",
        "mock/src",
    ];
    let mut found = Vec::new();
    for root in roots {
        for (_, path) in modules_of(&workspace().join(root), true) {
            let text = std::fs::read_to_string(&path).unwrap();
            for (number, line) in text.lines().enumerate() {
                let code = line.trim_start();
                if code.starts_with("//") || line.contains("\\n") || line.contains("\\\"") {
                    continue;
                }
                // The text between each pair of quotes on the line.
                let quoted = line.split('"').skip(1).step_by(2);
                for literal in quoted {
                    let trimmed = literal.trim();
                    if trimmed.contains("      ") {
                        found.push(format!("{}:{}: {line}", path.display(), number + 1));
                    }
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}
