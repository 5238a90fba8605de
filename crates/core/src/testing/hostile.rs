//! Property tests of every reader a stranger can feed: a plan (file or
//! `#plan=` link), a results file to import or merge, a published index or
//! points file. The documents are JSON-shaped — a real document with a
//! member replaced by a value of another type, unknown members, huge and
//! non-finite numbers, deep nesting, very long strings, duplicate keys —
//! so the readers are exercised past their first `{`, where random text
//! never gets. Each reader must return a valid document or a named error,
//! and never panic.

use proptest::prelude::*;
use serde_json::{Map, Value};

use crate::documents::dashboard::{Published, read_published};
use crate::documents::results::{import_json, merge};
use crate::planning::plan::Plan;

const PLAN: &str = include_str!("../../../../tests/golden/plan.json");
const RESULTS: &str = include_str!("../../../../tests/golden/results.json");

/// Any JSON value, nested a few levels, with awkward leaves.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        prop_oneof![
            Just(0.0),
            Just(-0.0),
            Just(1e308),
            Just(-1e308),
            Just(f64::MIN_POSITIVE),
            Just(5e-324),
            -1e9f64..1e9,
        ]
        .prop_map(Value::from),
        ".{0,12}".prop_map(Value::from),
        (0usize..200_000).prop_map(|n| Value::from("x".repeat(n))),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((".{0,8}", inner), 0..6)
                .prop_map(|members| Value::Object(members.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// One change to a document.
#[derive(Clone, Debug)]
enum Mutation {
    /// Replace the value at a path (chosen by these indices) with another.
    Replace(Vec<usize>, Value),
    /// Add a member nobody defined, at a path.
    Unknown(Vec<usize>, String, Value),
    /// Wrap the value at a path in this many arrays.
    Nest(Vec<usize>, usize),
    /// Write a number JSON cannot hold (`1e999`, `NaN`) at a path.
    NonFinite(Vec<usize>, &'static str),
    /// Repeat a top-level member with another value (a duplicate key).
    Duplicate(usize, Value),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let path = prop::collection::vec(0usize..64, 0..5);
    prop_oneof![
        (path.clone(), any_json()).prop_map(|(p, v)| Mutation::Replace(p, v)),
        (path.clone(), "[a-z_]{1,12}", any_json()).prop_map(|(p, k, v)| Mutation::Unknown(p, k, v)),
        (path.clone(), 1usize..300).prop_map(|(p, depth)| Mutation::Nest(p, depth)),
        (
            path,
            prop_oneof![Just("1e999"), Just("-1e999"), Just("NaN"), Just("Infinity")]
        )
            .prop_map(|(p, n)| Mutation::NonFinite(p, n)),
        (0usize..64, any_json()).prop_map(|(i, v)| Mutation::Duplicate(i, v)),
    ]
}

/// The value at the path the indices choose (each index taken modulo the
/// container's size), stopping at the first leaf.
fn pick<'a>(mut value: &'a mut Value, path: &[usize]) -> &'a mut Value {
    for &index in path {
        let len = match &*value {
            Value::Array(items) => items.len(),
            Value::Object(members) => members.len(),
            _ => 0,
        };
        if len == 0 {
            break;
        }
        value = match value {
            Value::Array(items) => &mut items[index % len],
            Value::Object(members) => {
                let key = members.keys().nth(index % len).cloned().unwrap();
                members.get_mut(&key).unwrap()
            }
            _ => unreachable!("only containers have a length"),
        };
    }
    value
}

/// The mutated document as text.
fn apply(document: &str, mutation: &Mutation) -> String {
    let mut value: Value = match serde_json::from_str(document) {
        Ok(value) => value,
        Err(_) => return document.to_owned(),
    };
    const MARK: &str = "@@non-finite@@";
    match mutation {
        Mutation::Replace(path, new) => *pick(&mut value, path) = new.clone(),
        Mutation::Unknown(path, key, new) => {
            if let Value::Object(members) = pick(&mut value, path) {
                members.insert(key.clone(), new.clone());
            }
        }
        Mutation::Nest(path, depth) => {
            let target = pick(&mut value, path);
            let mut nested = target.take();
            for _ in 0..*depth {
                nested = Value::Array(vec![nested]);
            }
            *target = nested;
        }
        Mutation::NonFinite(path, _) => *pick(&mut value, path) = Value::from(MARK),
        Mutation::Duplicate(index, new) => {
            let text = value.to_string();
            let Value::Object(members) = &value else {
                return text;
            };
            let Some(key) = members.keys().nth(index % members.len().max(1)) else {
                return text;
            };
            // Append `"key": new` before the final `}`.
            let extra = format!(",{}:{}", Value::from(key.as_str()), new);
            return format!("{}{}}}", &text[..text.len() - 1], extra);
        }
    }
    let text = value.to_string();
    match mutation {
        Mutation::NonFinite(_, number) => text.replace(&format!("\"{MARK}\""), number),
        _ => text,
    }
}

/// A valid points file, from the golden results.
fn points_document() -> String {
    let doc = import_json(RESULTS).unwrap_or_else(|e| panic!("golden results: {e}"));
    crate::documents::publish::PointsDoc::from_results(&doc, "fra1").to_json()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn a_plan_reads_as_a_valid_plan_or_a_named_error(mutation in mutation()) {
        let text = apply(PLAN, &mutation);
        match Plan::from_json(&text) {
            Ok(plan) => prop_assert!(plan.validate().is_ok()),
            Err(error) => prop_assert!(!error.to_string().is_empty()),
        }
        // The same document through a link.
        use base64::Engine as _;
        let link = format!(
            "#plan={}",
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(text.as_bytes())
        );
        match Plan::from_link_fragment(&link) {
            Ok(plan) => prop_assert!(plan.validate().is_ok()),
            Err(error) => prop_assert!(!error.to_string().is_empty()),
        }
    }

    #[test]
    fn a_results_file_imports_or_is_refused_with_a_named_error(mutation in mutation()) {
        let text = apply(RESULTS, &mutation);
        match import_json(&text) {
            Ok(doc) => {
                // A document that imports writes back out as one that
                // imports to the same, and merges with itself.
                let again = import_json(&crate::documents::results::to_json(&doc));
                prop_assert_eq!(again.as_ref().ok(), Some(&doc));
                prop_assert!(merge(&[doc.clone(), doc]).is_ok());
            }
            Err(error) => prop_assert!(!error.to_string().is_empty()),
        }
        match read_published(text.as_bytes()) {
            Ok(Published::Points(_) | Published::Index(_)) => {}
            Err(error) => prop_assert!(!error.to_string().is_empty()),
        }
    }

    #[test]
    fn a_points_file_loads_or_is_refused_with_a_named_error(mutation in mutation()) {
        let text = apply(&points_document(), &mutation);
        match read_published(text.as_bytes()) {
            Ok(_) => {}
            Err(error) => prop_assert!(!error.to_string().is_empty()),
        }
    }
}

#[test]
fn files_above_the_size_limits_are_refused_before_parsing() {
    // Not JSON at all: a parse would say so; the size check comes first.
    let huge = "x".repeat(crate::documents::results::MAX_RESULTS_BYTES + 1);
    let error = import_json(&huge).unwrap_err();
    assert!(
        matches!(
            error,
            crate::documents::results::ImportError::TooLarge { .. }
        ),
        "{error}"
    );
    assert!(error.to_string().contains("up to 128 MiB"), "{error}");
    let error = read_published(huge.as_bytes()).unwrap_err();
    assert!(
        matches!(
            error,
            crate::documents::dashboard::LoadError::TooLarge { .. }
        ),
        "{error}"
    );
}

#[test]
fn the_mutations_reach_inside_the_documents() {
    // The generator is worth something only if it makes documents that are
    // still JSON objects with the real members: check a few by hand.
    let replaced = apply(PLAN, &Mutation::Replace(vec![1], Value::from("not a list")));
    let value: Value = serde_json::from_str(&replaced).unwrap();
    assert!(value.is_object());
    assert!(Plan::from_json(&replaced).is_err());
    let original: Value = serde_json::from_str(PLAN).unwrap();
    let first_key = original.as_object().unwrap().keys().next().unwrap().clone();
    let duplicated = apply(PLAN, &Mutation::Duplicate(0, Value::from(7)));
    let quoted = format!("\"{first_key}\":");
    assert_eq!(duplicated.matches(&quoted).count(), 2, "{duplicated}");
    let nested = apply(PLAN, &Mutation::Nest(vec![0], 200));
    assert!(Plan::from_json(&nested).is_err());
    let non_finite = apply(RESULTS, &Mutation::NonFinite(vec![3, 0, 5], "1e999"));
    assert!(non_finite.contains("1e999"));
    assert!(import_json(&non_finite).is_err());
}
