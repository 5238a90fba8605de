//! The path of the member a JSON reader stopped at (`samples[3].ttft_ms`),
//! read from the text and the error's position, so a document that does
//! not fit its type names the member that did not.
//!
//! Why not track the path while reading (serde_path_to_error, which this
//! crate used before): tracking wraps every document type's reader in a
//! second, path-keeping copy, and the page's download was 33.9 kB gzip
//! larger with it (699.8 against 665.9 kB, docs/size.md, 2026-12-06). serde_json stops where the error
//! is and says where (line and column), so the path can be read afterwards
//! from the text before that point: which objects and arrays are open
//! there, the member name each object is at and the element each array is
//! at. Only structure matters: strings (for their escapes and the member
//! names) and the six structural characters; numbers and literals are
//! skipped. The tests read 384 broken documents both ways and require the
//! path serde_path_to_error gives (`cargo test -p firsttoken-core --lib
//! json_path -- --nocapture` prints the count); a text cut short between
//! two members may name the member or its container.
//!
//! This is a hand-written scanner where a library (serde_path_to_error)
//! does the job: it was written because the page's weight budget could not
//! be met otherwise. A streaming reader that reports its path (struson)
//! walked to the error's offset would be the library route; it was not
//! tried or measured.

/// One open container before the error.
enum Open {
    /// An object at this member: its name (`None` before the first, and
    /// between a `,` and the next) and whether its `:` has been read (the
    /// reader is at the member's value only then).
    Object {
        name: Option<String>,
        at_value: bool,
    },
    /// An array at this element, once the element has begun.
    Array { index: usize, begun: bool },
}

/// Where in a member the reader stopped, read from serde_json's error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// In a value of the wrong type or value.
    InValue,
    /// At a member's name (serde's "unknown field"): the path is the
    /// member's, though its value was not begun.
    AtName,
    /// Between members: after a value, where a `,` or the container's end
    /// was due (a text cut short there, or something else in its place).
    /// The path is the container's own, not its last member's.
    Between,
}

impl Stop {
    /// From serde_json's error: its messages for a text whose structure
    /// broke after a value, for an unknown member's name, and otherwise
    /// (a value of the wrong type or form, a member an object lacks, found
    /// once the object is read) in a value.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn of(error: &serde_json::Error) -> Self {
        let message = error.to_string();
        let between = [
            "EOF while parsing a list",
            "EOF while parsing an object",
            "expected `,` or `]`",
            "expected `,` or `}`",
            // A list longer than its type's (a pair given three).
            "trailing characters",
        ];
        if between.iter().any(|m| message.starts_with(m)) {
            Self::Between
        } else if message.starts_with("unknown field") {
            Self::AtName
        } else {
            Self::InValue
        }
    }
}

/// The path of the member being read at byte `offset` of `text`, in
/// serde_path_to_error's form (`a.b[2].c`, empty at the top), where the
/// reader stopped as `stop` says.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn path_at(text: &str, offset: usize, stop: Stop) -> String {
    let before = text.as_bytes().get(..offset).unwrap_or(text.as_bytes());
    let mut open: Vec<Open> = Vec::new();
    let mut index = 0;
    while let Some(&byte) = before.get(index) {
        index += 1;
        match byte {
            b'{' => {
                begin_value(&mut open);
                open.push(Open::Object {
                    name: None,
                    at_value: false,
                });
            }
            b'[' => {
                begin_value(&mut open);
                open.push(Open::Array {
                    index: 0,
                    begun: false,
                });
            }
            b'}' | b']' => {
                open.pop();
            }
            b',' => match open.last_mut() {
                Some(Open::Object { name, at_value }) => {
                    *name = None;
                    *at_value = false;
                }
                Some(Open::Array { index, begun }) => {
                    *index += 1;
                    *begun = false;
                }
                None => {}
            },
            b'"' => {
                let start = index;
                let mut closed = false;
                // To the closing quote, over escaped characters.
                while let Some(&b) = before.get(index) {
                    index += 1;
                    match b {
                        b'\\' => index += 1,
                        b'"' => {
                            closed = true;
                            break;
                        }
                        _ => {}
                    }
                }
                match open.last_mut() {
                    // A name is the member's once it is whole.
                    Some(Open::Object {
                        name: name @ None, ..
                    }) => {
                        if closed {
                            let raw = before.get(start..index - 1).unwrap_or_default();
                            *name = Some(member_name(raw));
                        }
                    }
                    _ => begin_value(&mut open),
                }
            }
            b':' => {
                if let Some(Open::Object { at_value, .. }) = open.last_mut() {
                    *at_value = true;
                }
            }
            b' ' | b'\t' | b'\n' | b'\r' => {}
            _ => begin_value(&mut open),
        }
    }
    match (stop, open.last_mut()) {
        (Stop::Between, Some(Open::Object { at_value, .. })) => *at_value = false,
        (Stop::Between, Some(Open::Array { begun, .. })) => *begun = false,
        (Stop::AtName, Some(Open::Object { name, at_value })) => *at_value = name.is_some(),
        // A value of the wrong type is seen by its first character, which
        // may not have been read yet: then the array is at that element.
        (Stop::InValue, Some(Open::Array { begun, .. })) => {
            let next = text.get(offset..).map(str::trim_start).unwrap_or_default();
            if !next.is_empty() && !next.starts_with([']', ',', '}']) {
                *begun = true;
            }
        }
        _ => {}
    }
    let mut path = String::new();
    for container in &open {
        match container {
            Open::Object {
                name: Some(name),
                at_value: true,
            } => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(name);
            }
            Open::Array { index, begun: true } => {
                path.push('[');
                path.push_str(&index.to_string());
                path.push(']');
            }
            _ => {}
        }
    }
    path
}

/// A value begins in the innermost container: an array is then at its
/// element.
#[cfg_attr(target_arch = "wasm32", inline)]
fn begin_value(open: &mut [Open]) {
    if let Some(Open::Array { begun, .. }) = open.last_mut() {
        *begun = true;
    }
}

/// A member name as written between its quotes, its escapes read (a name
/// whose escapes do not read stays as written).
#[cfg_attr(target_arch = "wasm32", inline)]
fn member_name(raw: &[u8]) -> String {
    let quoted = [b"\"".as_slice(), raw, b"\""].concat();
    serde_json::from_slice::<String>(&quoted)
        .unwrap_or_else(|_| String::from_utf8_lossy(raw).into_owned())
}

/// The byte offset of serde_json's error position (1-based line and
/// column, the column counted in bytes) in `text`.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let line_start = if line <= 1 {
        0
    } else {
        text.match_indices('\n')
            .nth(line - 2)
            .map_or(text.len(), |(at, _)| at + 1)
    };
    (line_start + column).min(text.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    /// The path serde_json's error gives by this module's reading.
    fn read<T: for<'de> Deserialize<'de>>(text: &str) -> Option<String> {
        let error = serde_json::from_str::<T>(text).err()?;
        let offset = offset_of(text, error.line(), error.column());
        Some(path_at(text, offset, Stop::of(&error)))
    }

    /// The path serde_path_to_error gives, as the oracle.
    fn tracked<T: for<'de> Deserialize<'de>>(text: &str) -> Option<String> {
        let mut deserializer = serde_json::Deserializer::from_str(text);
        match serde_path_to_error::deserialize::<_, T>(&mut deserializer) {
            Ok(_) => None,
            // Its known segments: a member being named is `?` there, and
            // this module names the container it is in.
            Err(error) => Some(
                error
                    .path()
                    .iter()
                    .filter(|s| !matches!(s, serde_path_to_error::Segment::Unknown))
                    .fold(String::new(), |mut path, segment| {
                        match segment {
                            serde_path_to_error::Segment::Seq { index } => {
                                path.push_str(&format!("[{index}]"));
                            }
                            other => {
                                if !path.is_empty() {
                                    path.push('.');
                                }
                                path.push_str(&other.to_string());
                            }
                        }
                        path
                    }),
            ),
        }
    }

    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    #[serde(deny_unknown_fields)]
    struct Doc {
        samples: Vec<Sample>,
        #[serde(default)]
        plan: Option<Plan>,
    }

    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Sample {
        ttft_ms: f64,
        #[serde(default)]
        error: Option<Failure>,
        #[serde(default)]
        tags: Vec<String>,
    }

    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    #[serde(rename_all = "snake_case")]
    enum Kind {
        Timeout,
        Http,
    }

    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Failure {
        kind: Kind,
        status: Option<u16>,
    }

    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Plan {
        targets: Vec<Target>,
        #[serde(default)]
        sizes: Vec<u32>,
        #[serde(default)]
        pair: [u8; 2],
    }

    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Target {
        label: String,
        #[serde(rename = "base url")]
        base_url: String,
    }

    #[test]
    fn names_the_member_as_path_tracking_does() {
        let cases = [
            (
                r#"{"samples": [{"ttft_ms": 1}, {"ttft_ms": "x"}]}"#,
                "samples[1].ttft_ms",
            ),
            (
                r#"{"samples": [{"ttft_ms": 1}, {"tags": []}]}"#,
                "samples[1]",
            ),
            (
                r#"{"samples": [{"ttft_ms": 1, "tags": ["a", 5]}]}"#,
                "samples[0].tags[1]",
            ),
            (
                r#"{"samples": [{"ttft_ms": 1, "error": {"kind": "nope"}}]}"#,
                "samples[0].error.kind",
            ),
            (
                r#"{"samples": [{"ttft_ms": 1, "error": {"kind": "http", "status": 70000}}]}"#,
                "samples[0].error.status",
            ),
            (
                r#"{"samples": [], "plan": {"targets": [{"label": "a, \"b\" [c]", "base url": 3}]}}"#,
                "plan.targets[0].base url",
            ),
            (
                r#"{"samples": [], "plan": {"targets": [], "sizes": [1, -2]}}"#,
                "plan.sizes[1]",
            ),
            (r#"{"samples": [], "extra": 1}"#, "extra"),
            (r#"{"samples": {}}"#, "samples"),
            (r#"{}"#, ""),
        ];
        for (text, path) in cases {
            assert_eq!(tracked::<Doc>(text).as_deref(), Some(path), "{text}");
            assert_eq!(read::<Doc>(text).as_deref(), Some(path), "{text}");
        }
    }

    #[test]
    fn finds_the_error_on_later_lines_and_after_wide_characters() {
        let text = "{\n  \"samples\": [\n    {\"ttft_ms\": 1, \"tags\": [\"é東\"]},\n    {\"ttft_ms\": true}\n  ]\n}";
        assert_eq!(read::<Doc>(text).as_deref(), Some("samples[1].ttft_ms"));
        assert_eq!(tracked::<Doc>(text), read::<Doc>(text));
    }

    /// Every document made by cutting a good one short, or by putting a
    /// wrong value in place of each of its values, names the member that
    /// path tracking names.
    #[test]
    fn agrees_with_path_tracking_on_every_broken_variant() {
        let good = r#"{"samples": [{"ttft_ms": 1.5, "tags": ["x", "y"], "error": null},
            {"ttft_ms": 2, "error": {"kind": "timeout", "status": null}}],
            "plan": {"targets": [{"label": "A \\ B", "base url": "http://h"}], "sizes": [128, 2048]}}"#;
        assert!(serde_json::from_str::<Doc>(good).is_ok());
        let mut checked = 0;
        // Cut short at every byte.
        for end in 0..good.len() {
            let Some(cut) = good.get(..end) else { continue };
            if let Some(path) = tracked::<Doc>(cut) {
                // A text cut short between a member and the next: the
                // reader may or may not have begun the next one, so the
                // path may be one level off, never elsewhere.
                let read = read::<Doc>(cut).unwrap_or_default();
                let container =
                    |p: &str| p.rsplit_once(['.', '[']).map_or("", |(c, _)| c).to_owned();
                assert!(
                    read == path || read == container(&path) || container(&read) == path,
                    "{cut}: {read} for {path}"
                );
                checked += 1;
            }
        }
        // Each value replaced by each wrong one.
        let wrong = ["\"s\"", "-1", "true", "[]", "{}", "null", "1e400", "70000"];
        let bytes = good.as_bytes();
        for start in 0..good.len() {
            let after = good[..start].trim_end().as_bytes().last();
            if !matches!(bytes[start], b'0'..=b'9' | b'"' | b'n' | b't' | b'[' | b'{')
                || !matches!(after, Some(b':' | b'[' | b','))
            {
                continue;
            }
            // The end of the value that starts here, by reading it.
            let mut stream =
                serde_json::Deserializer::from_str(&good[start..]).into_iter::<serde_json::Value>();
            if stream.next().and_then(Result::ok).is_none() {
                continue;
            }
            let end = start + stream.byte_offset();
            // Values only, not member names (a name followed by its `:`).
            if good[end..].trim_start().starts_with(':') {
                continue;
            }
            for replacement in wrong {
                let text = format!("{}{replacement}{}", &good[..start], &good[end..]);
                if let Some(path) = tracked::<Doc>(&text) {
                    assert_eq!(read::<Doc>(&text), Some(path), "{text}");
                    checked += 1;
                }
            }
        }
        println!("{checked} broken documents compared with path tracking");
        assert!(checked > 300, "{checked} broken documents compared");
    }
}
