//! Reading typed JSON documents, one way only.
//!
//! Every typed document (plan, results, stored runs and samples, remembered
//! keys) is parsed to a `serde_json::Value` first and then converted. serde
//! generates separate code for each pair of (type, input kind): reading some
//! types straight from text and others from a `Value` put two copies of the
//! code for `Plan`, `Sample` and friends into the page's wasm. One path keeps
//! one copy — 10 kB less gzipped page, measured with `make bench-size` — at
//! the cost of an intermediate tree, small for these documents.
//!
//! Writing stays direct: going through a `Value` would sort the members
//! alphabetically (serde_json's map without `preserve_order`), and plan files
//! and links are meant to read in the documented order.

use serde::de::DeserializeOwned;

/// Parses `text` as JSON and converts it to `T`.
///
/// # Errors
/// When `text` is not JSON, or its shape does not fit `T`.
pub fn from_text<T: DeserializeOwned>(text: &str) -> serde_json::Result<T> {
    serde_json::from_value(serde_json::from_str::<serde_json::Value>(text)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_typed_documents_and_reports_bad_ones() {
        let keys: std::collections::BTreeMap<String, String> =
            from_text(r#"{"openai":"k"}"#).unwrap();
        assert_eq!(keys["openai"], "k");
        assert!(from_text::<Vec<u32>>("[1, 2,").is_err());
        assert!(from_text::<Vec<u32>>(r#"["a"]"#).is_err());
    }
}
