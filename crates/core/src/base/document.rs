//! Reading and writing the JSON documents: the plan (`firsttoken_plan`),
//! the results file (`firsttoken_results`), the routing table
//! (`firsttoken_routing`) and the stored run. Each document is a plain
//! struct with serde derives in its own module; this module holds what they
//! share, so a native program reads and writes the same files through the
//! same functions as the page.
//!
//! serde_json does the work. Two things are this project's own:
//!
//! - Numbers are written in the form the documents have always had: the
//!   shortest digits that read back to the same `f64`, in plain decimal from
//!   1e-6 up to 1e21 and with an exponent outside it, always with a `.` or an
//!   exponent (`5.0`, `0.000001`, `1e21`). serde_json's own printer switches
//!   to exponents at other places (`1e-6`), which would change the bytes of
//!   every existing file holding such a number.
//! - Errors name the path of the bad member (`samples[3].ttft_ms: invalid
//!   type: …`), read from the text before the error's position
//!   ([`json_path`]).

use std::fmt;
use std::io;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::ser::{CompactFormatter, Formatter, PrettyFormatter};

use crate::base::json_path;

/// A document that did not read: the path of the bad member (empty for
/// the document itself) and serde_json's message, with line and column.
#[derive(Debug)]
pub struct Error {
    path: String,
    inner: serde_json::Error,
}

impl Error {
    /// Where in the document, e.g. `samples[3].ttft_ms`; empty at the top.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn path(&self) -> &str {
        &self.path
    }

    /// serde_json's error, for its category, line and column.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn inner(&self) -> &serde_json::Error {
        &self.inner
    }
}

impl Error {
    /// serde_json's error in reading `text`, with the path of the member
    /// it stopped at ([`json_path`]).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn in_text(text: &str, inner: serde_json::Error) -> Self {
        Self {
            path: error_path(text, &inner),
            inner,
        }
    }
}

/// The path of the member serde_json stopped at in reading `text`
/// (`samples[3].ttft_ms`), empty at the top.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn error_path(text: &str, error: &serde_json::Error) -> String {
    let offset = json_path::offset_of(text, error.line(), error.column());
    json_path::path_at(text, offset, json_path::Stop::of(error))
}

impl From<serde_json::Error> for Error {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn from(inner: serde_json::Error) -> Self {
        Self {
            path: String::new(),
            inner,
        }
    }
}

impl fmt::Display for Error {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path)?;
        }
        write!(f, "{}", self.inner)
    }
}

impl std::error::Error for Error {}

/// Compact JSON text of `value`.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> String {
    write(value, DocumentFloats(CompactFormatter))
}

/// JSON text of `value` indented by two spaces (the layout of
/// `JSON.stringify(v, null, 2)`).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn to_string_pretty<T: Serialize + ?Sized>(value: &T) -> String {
    write(value, DocumentFloats(PrettyFormatter::new()))
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn write<T: Serialize + ?Sized, F: Formatter>(value: &T, formatter: F) -> String {
    let mut out = Vec::with_capacity(128);
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, formatter);
    // The documents hold strings, numbers, booleans, options, lists and
    // string-keyed maps: writing them to memory cannot fail.
    if value.serialize(&mut serializer).is_err() {
        return String::new();
    }
    // serde_json writes UTF-8 only.
    String::from_utf8(out).unwrap_or_default()
}

/// Reads a `T` from JSON text.
///
/// # Errors
/// When the text is not JSON or its shape does not fit `T`; the error's
/// path names the member.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, Error> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = T::deserialize(&mut deserializer).map_err(|e| Error::in_text(text, e))?;
    // Trailing characters are a syntax error, reported at the top.
    deserializer.end()?;
    Ok(value)
}

/// Reads a `T` from JSON text the program wrote itself (a stored run, the
/// remembered keys), where a text that does not fit is skipped and its
/// error read by nobody.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn read_quietly<T: DeserializeOwned>(text: &str) -> Option<T> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = T::deserialize(&mut deserializer).ok()?;
    deserializer.end().ok()?;
    Some(value)
}

/// Displays a finite `f64` as the documents write it (see the module
/// docs); non-finite numbers have no JSON form and display as `null`.
#[derive(Clone, Copy, Debug)]
pub struct Number(pub f64);

impl fmt::Display for Number {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let x = self.0;
        if !x.is_finite() {
            return f.write_str("null");
        }
        let magnitude = x.abs();
        if magnitude != 0.0 && !(1e-6..1e21).contains(&magnitude) {
            return write!(f, "{x:e}");
        }
        // In this range `Display` writes no exponent, and a `.` only for a fraction.
        write!(f, "{x}")?;
        if x.fract() == 0.0 {
            f.write_str(".0")?;
        }
        Ok(())
    }
}

/// serde_json's compact or pretty layout with the documents' number form.
struct DocumentFloats<F>(F);

impl<F: Formatter> Formatter for DocumentFloats<F> {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn write_f64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        write!(writer, "{}", Number(value))
    }

    #[cfg_attr(target_arch = "wasm32", inline)]
    fn begin_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_array(writer)
    }

    #[cfg_attr(target_arch = "wasm32", inline)]
    fn end_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_array(writer)
    }

    #[cfg_attr(target_arch = "wasm32", inline)]
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_array_value(writer, first)
    }

    #[cfg_attr(target_arch = "wasm32", inline)]
    fn end_array_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_array_value(writer)
    }

    #[cfg_attr(target_arch = "wasm32", inline)]
    fn begin_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_object(writer)
    }

    #[cfg_attr(target_arch = "wasm32", inline)]
    fn end_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_object(writer)
    }

    #[cfg_attr(target_arch = "wasm32", inline)]
    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_object_key(writer, first)
    }

    #[cfg_attr(target_arch = "wasm32", inline)]
    fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_object_value(writer)
    }

    #[cfg_attr(target_arch = "wasm32", inline)]
    fn end_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_object_value(writer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keep_the_documents_form() {
        let cases = [
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (5.0, "5.0"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1e-6, "0.000001"),
            (1.5e-6, "0.0000015"),
            (1e-7, "1e-7"),
            (5e-324, "5e-324"),
            (1e20, "100000000000000000000.0"),
            (1e21, "1e21"),
            (f64::MAX, "1.7976931348623157e308"),
            (f64::NAN, "null"),
            (f64::NEG_INFINITY, "null"),
        ];
        for (x, text) in cases {
            assert_eq!(to_string(&x), text);
            if x.is_finite() {
                let back: f64 = from_str(text).unwrap();
                assert_eq!(back.to_bits(), x.to_bits(), "{text}");
            }
        }
    }

    #[test]
    fn pretty_layout_is_two_spaces() {
        let value = serde_json::json!({"a": [1, {"b": null}], "c": [], "d": {}});
        assert_eq!(
            to_string_pretty(&value),
            "{\n  \"a\": [\n    1,\n    {\n      \"b\": null\n    }\n  ],\n  \"c\": [],\n  \"d\": {}\n}"
        );
    }

    #[test]
    fn errors_name_the_path() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Doc {
            samples: Vec<Sample>,
        }
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Sample {
            ttft_ms: f64,
        }
        let err =
            from_str::<Doc>(r#"{"samples": [{"ttft_ms": 1}, {"ttft_ms": "x"}]}"#).unwrap_err();
        assert_eq!(err.path(), "samples[1].ttft_ms");
        assert!(
            err.to_string()
                .starts_with("samples[1].ttft_ms: invalid type"),
            "{err}"
        );
        assert!(from_str::<Doc>(r#"{"samples": []} x"#).is_err());
    }
}
