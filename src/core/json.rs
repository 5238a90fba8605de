//! JSON for every document the page reads and writes: a tree ([`Value`]), a
//! strict parser ([`parse`]), a writer ([`Writer`], compact or indented) and
//! two small traits ([`ToJson`], [`FromJson`]) that the document types
//! implement by listing their members (see [`json_object!`] and
//! [`json_enum!`]).
//!
//! Why not serde: serde generates a visitor, a field matcher and error paths
//! for every type and every input kind, and serde_json adds its own float
//! printer and parser. Those were about a third of the page's wasm; this
//! module does the same work with one parser, one writer and a few lines per
//! type. The wire format is RFC 8259 JSON, members written in declaration
//! order, numbers exact: a finite `f64` is written with its shortest
//! round-tripping digits and read back with correct rounding, so exported
//! timings import bit for bit.
//!
//! [`json_object!`]: crate::json_object
//! [`json_enum!`]: crate::json_enum

use super::small_map::SmallMap;
use std::fmt::{self, Write as _};

/// A JSON number as written: integers stay exact up to 64 bits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    /// A non-negative integer literal.
    PosInt(u64),
    /// A negative integer literal.
    NegInt(i64),
    /// Any other number (a fraction, an exponent, or an integer too large for 64 bits).
    Float(f64),
}

impl Number {
    /// The number as an `f64` (integers beyond 2^53 round to the nearest).
    #[allow(clippy::cast_precision_loss)]
    #[must_use]
    pub fn as_f64(self) -> f64 {
        match self {
            Self::PosInt(n) => n as f64,
            Self::NegInt(n) => n as f64,
            Self::Float(x) => x,
        }
    }

    /// The number when it was written as a non-negative integer.
    #[must_use]
    pub fn as_u64(self) -> Option<u64> {
        match self {
            Self::PosInt(n) => Some(n),
            _ => None,
        }
    }

    /// The number when it was written as an integer that fits an `i64`.
    #[must_use]
    pub fn as_i64(self) -> Option<i64> {
        match self {
            Self::PosInt(n) => i64::try_from(n).ok(),
            Self::NegInt(n) => Some(n),
            Self::Float(_) => None,
        }
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::PosInt(n) => write!(f, "{n}"),
            Self::NegInt(n) => write!(f, "{n}"),
            Self::Float(x) => write_float(f, x),
        }
    }
}

/// A JSON value. Objects keep their members in document order.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum Value {
    /// `null` (also what [`Value::get`] and indexing give for a missing member).
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number.
    Number(Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object.
    Object(Map),
}

/// The members of a JSON object, in document order. A name given twice keeps
/// its last value, as most readers do.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Map(Vec<(String, Value)>);

impl Map {
    /// An empty object.
    #[must_use]
    pub fn new() -> Self {
        Self(Vec::new())
    }

    /// The member called `name`.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.0.iter().find(|(key, _)| key == name).map(|(_, v)| v)
    }

    /// Whether there is a member called `name`.
    #[must_use]
    pub fn contains_key(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// Sets member `name`, replacing an earlier value in place.
    pub fn insert(&mut self, name: impl Into<String>, value: Value) {
        let name = name.into();
        match self.0.iter_mut().find(|(key, _)| *key == name) {
            Some((_, slot)) => *slot = value,
            None => self.0.push((name, value)),
        }
    }

    /// Removes member `name`, returning its value.
    pub fn remove(&mut self, name: &str) -> Option<Value> {
        let i = self.0.iter().position(|(key, _)| key == name)?;
        Some(self.0.remove(i).1)
    }

    /// The members in document order.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &Value)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    /// The number of members.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the object has no members.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a String, &'a Value);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, (String, Value)>,
        fn(&'a (String, Value)) -> (&'a String, &'a Value),
    >;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(k, v)| (k, v))
    }
}

static NULL: Value = Value::Null;

impl Value {
    /// Member `name` of an object; `None` for a missing member or a non-object.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&Self> {
        match self {
            Self::Object(map) => map.get(name),
            _ => None,
        }
    }

    /// The text of a string.
    #[must_use]
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Self::String(s) => Some(s),
            _ => None,
        }
    }

    /// Any number, as `f64`.
    #[must_use]
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Self::Number(n) => Some(n.as_f64()),
            _ => None,
        }
    }

    /// A non-negative integer.
    #[must_use]
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Self::Number(n) => n.as_u64(),
            _ => None,
        }
    }

    /// A boolean.
    #[must_use]
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Self::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The items of an array.
    #[must_use]
    pub fn as_array(&self) -> Option<&Vec<Self>> {
        match self {
            Self::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The members of an object.
    #[must_use]
    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Self::Object(map) => Some(map),
            _ => None,
        }
    }

    /// Whether this is `null`.
    #[must_use]
    pub fn is_null(&self) -> bool {
        matches!(self, Self::Null)
    }

    /// Compact JSON text.
    #[must_use]
    pub fn to_json(&self) -> String {
        to_string(self)
    }
}

impl std::ops::Index<&str> for Value {
    type Output = Self;

    /// Member `name`, or `null` when missing (never panics).
    fn index(&self, name: &str) -> &Self {
        self.get(name).unwrap_or(&NULL)
    }
}

impl std::ops::Index<usize> for Value {
    type Output = Self;

    /// Item `i` of an array, or `null` when out of range (never panics).
    fn index(&self, i: usize) -> &Self {
        self.as_array()
            .and_then(|items| items.get(i))
            .unwrap_or(&NULL)
    }
}

impl fmt::Display for Value {
    /// Compact JSON text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&to_string(self))
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Self::String(s.to_owned())
    }
}
impl From<String> for Value {
    fn from(s: String) -> Self {
        Self::String(s)
    }
}
impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Self::Bool(b)
    }
}
impl From<f64> for Value {
    fn from(x: f64) -> Self {
        Self::Number(Number::Float(x))
    }
}
impl From<u32> for Value {
    fn from(n: u32) -> Self {
        Self::Number(Number::PosInt(n.into()))
    }
}
impl From<i32> for Value {
    fn from(n: i32) -> Self {
        Self::Number(
            i64::from(n)
                .try_into()
                .map_or(Number::NegInt(n.into()), Number::PosInt),
        )
    }
}
impl From<u64> for Value {
    fn from(n: u64) -> Self {
        Self::Number(Number::PosInt(n))
    }
}
impl From<Vec<Self>> for Value {
    fn from(items: Vec<Self>) -> Self {
        Self::Array(items)
    }
}
impl<T: Into<Self>> From<Option<T>> for Value {
    fn from(value: Option<T>) -> Self {
        value.map_or(Self::Null, Into::into)
    }
}

/// Builds a [`Value`] from JSON-like syntax: `json!({"a": [1, null], "b": (x.y())})`.
/// Member names are string literals or identifiers holding a string; values
/// are `null`, nested `{…}` / `[…]`, or single tokens (a literal, a variable,
/// or any expression in parentheses) converted with `Value::from`.
#[macro_export]
macro_rules! json {
    (null) => {
        $crate::core::json::Value::Null
    };
    ([ $($item:tt),* $(,)? ]) => {
        $crate::core::json::Value::Array(vec![ $( $crate::json!($item) ),* ])
    };
    ({ $($name:tt : $value:tt),* $(,)? }) => {{
        #[allow(unused_mut)]
        let mut map = $crate::core::json::Map::new();
        $( map.insert($name, $crate::json!($value)); )*
        $crate::core::json::Value::Object(map)
    }};
    ($other:expr) => {
        $crate::core::json::Value::from($other)
    };
}

// ---------------------------------------------------------------------------
// Parsing

/// Why a text is not JSON, or why a value does not fit a type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// Where in the value (`samples[3].ttft_ms`); empty at the top.
    path: String,
    message: String,
    /// 1-based line and column of a syntax error; `None` for a shape error.
    position: Option<(usize, usize)>,
}

impl Error {
    /// A shape error: the value is JSON but not what the type needs.
    #[must_use]
    pub fn shape(message: impl Into<String>) -> Self {
        Self {
            path: String::new(),
            message: message.into(),
            position: None,
        }
    }

    /// `expected {what}, found {a description of value}`.
    #[must_use]
    pub fn expected(what: &str, value: &Value) -> Self {
        Self::shape(format!("expected {what}, found {}", describe(value)))
    }

    /// The same error, located inside member `name` or item `[i]` of the
    /// value around it.
    #[must_use]
    pub fn within(mut self, at: &str) -> Self {
        let sep = if self.path.is_empty() || self.path.starts_with('[') {
            ""
        } else {
            "."
        };
        self.path = format!("{at}{sep}{}", self.path);
        self
    }

    /// The message with its path (`tags[1]: expected …`), without any position.
    #[must_use]
    pub fn message(&self) -> String {
        if self.path.is_empty() {
            self.message.clone()
        } else {
            format!("{}: {}", self.path, self.message)
        }
    }

    /// Line and column (1-based) of a syntax error.
    #[must_use]
    pub fn position(&self) -> Option<(usize, usize)> {
        self.position
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())?;
        match self.position {
            Some((line, column)) => write!(f, " at line {line} column {column}"),
            None => Ok(()),
        }
    }
}

impl std::error::Error for Error {}

/// How a JSON value looks, for "expected X, found Y" messages.
#[must_use]
pub fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) if s.chars().count() > 40 => "a long string".to_owned(),
        Value::String(s) => format!("\"{s}\""),
        Value::Array(_) => "a list".to_owned(),
        Value::Object(_) => "an object".to_owned(),
    }
}

/// Nesting deeper than this is refused rather than risking the stack.
const MAX_DEPTH: usize = 128;

/// Parses one JSON text (RFC 8259: one value, optional surrounding whitespace).
///
/// # Errors
/// The first syntax error, with its line and column.
pub fn parse(text: &str) -> Result<Value, Error> {
    let mut parser = Parser {
        bytes: text.as_bytes(),
        text,
        pos: 0,
        depth: 0,
    };
    parser.skip_whitespace();
    let value = parser.value()?;
    parser.skip_whitespace();
    if parser.pos < parser.bytes.len() {
        return Err(parser.error("trailing characters"));
    }
    Ok(value)
}

struct Parser<'a> {
    bytes: &'a [u8],
    text: &'a str,
    pos: usize,
    depth: usize,
}

impl Parser<'_> {
    fn error(&self, message: &str) -> Error {
        let before = &self.bytes[..self.pos.min(self.bytes.len())];
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let column = 1 + String::from_utf8_lossy(&before[line_start..])
            .chars()
            .count();
        Error {
            path: String::new(),
            message: message.to_owned(),
            position: Some((line, column)),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> bool {
        let hit = self.peek() == Some(byte);
        if hit {
            self.pos += 1;
        }
        hit
    }

    fn literal(&mut self, word: &str, value: Value) -> Result<Value, Error> {
        if self.bytes[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(value)
        } else {
            Err(self.error("expected value"))
        }
    }

    fn value(&mut self) -> Result<Value, Error> {
        match self.peek() {
            None => Err(self.error("EOF while parsing a value")),
            Some(b'n') => self.literal("null", Value::Null),
            Some(b't') => self.literal("true", Value::Bool(true)),
            Some(b'f') => self.literal("false", Value::Bool(false)),
            Some(b'"') => self.string().map(Value::String),
            Some(b'-' | b'0'..=b'9') => self.number().map(Value::Number),
            Some(open @ (b'[' | b'{')) => {
                if self.depth == MAX_DEPTH {
                    return Err(self.error("recursion limit exceeded"));
                }
                self.depth += 1;
                self.pos += 1;
                let value = if open == b'[' {
                    self.array()
                } else {
                    self.object()
                };
                self.depth -= 1;
                value
            }
            Some(_) => Err(self.error("expected value")),
        }
    }

    fn array(&mut self) -> Result<Value, Error> {
        let mut items = Vec::new();
        self.items(
            b']',
            ["EOF while parsing a list", "expected `,` or `]`"],
            &mut |p| {
                items.push(p.value()?);
                Ok(())
            },
        )?;
        Ok(Value::Array(items))
    }

    fn object(&mut self) -> Result<Value, Error> {
        let mut map = Map::new();
        self.items(
            b'}',
            ["EOF while parsing an object", "expected `,` or `}`"],
            &mut |p| {
                match p.peek() {
                    Some(b'"') => {}
                    None => return Err(p.error("EOF while parsing an object")),
                    Some(_) => return Err(p.error("key must be a string")),
                }
                let name = p.string()?;
                p.skip_whitespace();
                if !p.eat(b':') {
                    return Err(p.error("expected `:`"));
                }
                p.skip_whitespace();
                map.insert(name, p.value()?);
                Ok(())
            },
        )?;
        Ok(Value::Object(map))
    }

    /// The comma-separated items of a list or object up to `close`, the
    /// opening bracket already consumed; `item` reads one. `errors` are the
    /// messages for a text that ends early and for a missing separator.
    fn items(
        &mut self,
        close: u8,
        errors: [&str; 2],
        item: &mut dyn FnMut(&mut Self) -> Result<(), Error>,
    ) -> Result<(), Error> {
        self.skip_whitespace();
        if self.eat(close) {
            return Ok(());
        }
        loop {
            self.skip_whitespace();
            item(self)?;
            self.skip_whitespace();
            if self.eat(close) {
                return Ok(());
            }
            if !self.eat(b',') {
                let ended = self.peek().is_none();
                return Err(self.error(errors[usize::from(!ended)]));
            }
        }
    }

    /// A string, the opening quote at `pos`.
    fn string(&mut self) -> Result<String, Error> {
        self.pos += 1;
        let mut out = String::new();
        let mut run = self.pos;
        loop {
            match self.peek() {
                None => return Err(self.error("EOF while parsing a string")),
                Some(b'"') => {
                    out.push_str(&self.text[run..self.pos]);
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    out.push_str(&self.text[run..self.pos]);
                    self.pos += 1;
                    self.escape(&mut out)?;
                    run = self.pos;
                }
                Some(0..=0x1f) => {
                    return Err(self.error("control character in a string"));
                }
                Some(_) => self.pos += 1,
            }
        }
    }

    /// One escape, the backslash already consumed.
    fn escape(&mut self, out: &mut String) -> Result<(), Error> {
        let Some(byte) = self.peek() else {
            return Err(self.error("EOF while parsing a string"));
        };
        self.pos += 1;
        let c = match byte {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let first = self.hex4()?;
                if (0xDC00..0xE000).contains(&first) {
                    return Err(self.error("lone trailing surrogate in hex escape"));
                }
                let code = if (0xD800..0xDC00).contains(&first) {
                    if !(self.eat(b'\\') && self.eat(b'u')) {
                        return Err(self.error("lone leading surrogate in hex escape"));
                    }
                    let second = self.hex4()?;
                    if !(0xDC00..0xE000).contains(&second) {
                        return Err(self.error("lone leading surrogate in hex escape"));
                    }
                    0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                } else {
                    first
                };
                char::from_u32(code).ok_or_else(|| self.error("invalid unicode code point"))?
            }
            _ => {
                self.pos -= 1;
                return Err(self.error("invalid escape"));
            }
        };
        out.push(c);
        Ok(())
    }

    fn hex4(&mut self) -> Result<u32, Error> {
        let digits = self
            .bytes
            .get(self.pos..self.pos + 4)
            .ok_or_else(|| self.error("EOF while parsing a string"))?;
        let mut code = 0;
        for &d in digits {
            let v = char::from(d)
                .to_digit(16)
                .ok_or_else(|| self.error("invalid escape"))?;
            code = code * 16 + v;
        }
        self.pos += 4;
        Ok(code)
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
        self.pos - start
    }

    fn number(&mut self) -> Result<Number, Error> {
        let start = self.pos;
        let negative = self.eat(b'-');
        let int_start = self.pos;
        let int_digits = self.digits();
        if int_digits == 0 {
            return Err(self.error("invalid number"));
        }
        if int_digits > 1 && self.bytes[int_start] == b'0' {
            self.pos = int_start + 1;
            return Err(self.error("invalid number"));
        }
        let mut integral = true;
        if self.eat(b'.') {
            integral = false;
            if self.digits() == 0 {
                return Err(self.error("invalid number"));
            }
        }
        if self.eat(b'e') || self.eat(b'E') {
            integral = false;
            if !self.eat(b'+') {
                self.eat(b'-');
            }
            if self.digits() == 0 {
                return Err(self.error("invalid number"));
            }
        }
        let text = &self.text[start..self.pos];
        if integral {
            if negative {
                if let Ok(n) = text.parse::<i64>() {
                    return Ok(if n == 0 {
                        Number::Float(-0.0)
                    } else {
                        Number::NegInt(n)
                    });
                }
            } else if let Ok(n) = text.parse::<u64>() {
                return Ok(Number::PosInt(n));
            }
        }
        match super::decimal::parse_f64(text) {
            Some(x) if x.is_finite() => Ok(Number::Float(x)),
            _ => Err(self.error("number out of range")),
        }
    }
}

// ---------------------------------------------------------------------------
// Writing

/// Writes the JSON text of a float: the shortest digits that read back to
/// the same `f64`, always with a `.` or an exponent so it reads as a float.
/// Non-finite numbers have no JSON form and are written `null`.
fn write_float(out: &mut impl fmt::Write, x: f64) -> fmt::Result {
    if !x.is_finite() {
        return out.write_str("null");
    }
    let magnitude = x.abs();
    if magnitude != 0.0 && !(1e-6..1e21).contains(&magnitude) {
        return write!(out, "{x:e}");
    }
    // In this range `Display` writes no exponent, and a `.` only for a fraction.
    write!(out, "{x}")?;
    if x.fract() == 0.0 {
        out.write_str(".0")?;
    }
    Ok(())
}

/// Writes JSON text, compact or indented by two spaces (the layout of
/// `JSON.stringify(v, null, 2)`).
///
/// Values are written in call order: [`Writer::key`] before each member of
/// an object, the value methods for each item of an array.
#[derive(Debug, Default)]
pub struct Writer {
    out: String,
    pretty: bool,
    /// One entry per open container: whether it has an item yet.
    open: Vec<bool>,
    /// A member name was just written; its value follows on the same line.
    after_key: bool,
}

impl Writer {
    /// A writer of compact JSON.
    #[must_use]
    pub fn compact() -> Self {
        Self::default()
    }

    /// A writer of indented JSON.
    #[must_use]
    pub fn pretty() -> Self {
        Self {
            pretty: true,
            ..Self::default()
        }
    }

    /// The text written so far.
    #[must_use]
    pub fn finish(self) -> String {
        self.out
    }

    fn newline(&mut self) {
        if self.pretty {
            self.out.push('\n');
            for _ in 0..self.open.len() {
                self.out.push_str("  ");
            }
        }
    }

    /// Separator and indentation before an item of an array.
    fn item(&mut self) {
        if self.after_key {
            self.after_key = false;
            return;
        }
        if let Some(has_items) = self.open.last_mut() {
            let comma = *has_items;
            *has_items = true;
            if comma {
                self.out.push(',');
            }
            self.newline();
        }
    }

    fn open(&mut self, bracket: char) {
        self.item();
        self.out.push(bracket);
        self.open.push(false);
    }

    fn close(&mut self, bracket: char) {
        if self.open.pop() == Some(true) {
            self.newline();
        }
        self.out.push(bracket);
    }

    /// Opens an object.
    pub fn begin_object(&mut self) {
        self.open('{');
    }

    /// Closes the innermost object.
    pub fn end_object(&mut self) {
        self.close('}');
    }

    /// Opens an array.
    pub fn begin_array(&mut self) {
        self.open('[');
    }

    /// Closes the innermost array.
    pub fn end_array(&mut self) {
        self.close(']');
    }

    /// The name of the next member of the open object.
    pub fn key(&mut self, name: &str) {
        self.item();
        self.quoted(name);
        self.out.push_str(if self.pretty { ": " } else { ":" });
        self.after_key = true;
    }

    /// Writes member `name` with `value`.
    pub fn member<T: ToJson + ?Sized>(&mut self, name: &str, value: &T) {
        self.key(name);
        value.write_json(self);
    }

    /// A string value.
    pub fn string(&mut self, s: &str) {
        self.item();
        self.quoted(s);
    }

    /// `null`.
    pub fn null(&mut self) {
        self.item();
        self.out.push_str("null");
    }

    /// `true` or `false`.
    pub fn bool(&mut self, b: bool) {
        self.item();
        self.out.push_str(if b { "true" } else { "false" });
    }

    /// A number.
    pub fn number(&mut self, n: Number) {
        self.item();
        // Writing to a String cannot fail.
        let _ = write!(self.out, "{n}");
    }

    fn quoted(&mut self, s: &str) {
        self.out.push('"');
        let mut run = 0;
        for (i, byte) in s.bytes().enumerate() {
            let escape = match byte {
                b'"' => "\\\"",
                b'\\' => "\\\\",
                b'\n' => "\\n",
                b'\r' => "\\r",
                b'\t' => "\\t",
                0x08 => "\\b",
                0x0c => "\\f",
                0..=0x1f => "",
                _ => continue,
            };
            self.out.push_str(&s[run..i]);
            if escape.is_empty() {
                let _ = write!(self.out, "\\u{byte:04x}");
            } else {
                self.out.push_str(escape);
            }
            run = i + 1;
        }
        self.out.push_str(&s[run..]);
        self.out.push('"');
    }
}

/// A type with a JSON form.
pub trait ToJson {
    /// Writes the value.
    fn write_json(&self, w: &mut Writer);
}

/// A type that can be read from a JSON value.
pub trait FromJson: Sized {
    /// Reads the value, or says what is wrong with it.
    ///
    /// # Errors
    /// When `value` does not have this type's shape.
    fn from_json(value: &Value) -> Result<Self, Error>;
}

/// Compact JSON text of `value`.
#[must_use]
pub fn to_string<T: ToJson + ?Sized>(value: &T) -> String {
    let mut w = Writer::compact();
    value.write_json(&mut w);
    w.finish()
}

/// Indented JSON text of `value`.
#[must_use]
pub fn to_string_pretty<T: ToJson + ?Sized>(value: &T) -> String {
    let mut w = Writer::pretty();
    value.write_json(&mut w);
    w.finish()
}

/// The [`Value`] tree of `value`, to embed it in a document built with `json!`.
#[must_use]
pub fn to_value<T: ToJson + ?Sized>(value: &T) -> Value {
    // What the writer writes always parses.
    parse(&to_string(value)).unwrap_or_default()
}

/// Parses `text` and reads a `T` from it.
///
/// # Errors
/// When `text` is not JSON, or its shape does not fit `T`.
pub fn from_text<T: FromJson>(text: &str) -> Result<T, Error> {
    T::from_json(&parse(text)?)
}

/// Reads the members of an object one by one, for [`FromJson`] impls.
#[derive(Clone, Copy, Debug)]
pub struct Members<'a>(&'a Map);

impl<'a> Members<'a> {
    /// The members of `value`, which must be an object.
    ///
    /// # Errors
    /// When `value` is not an object.
    pub fn of(value: &'a Value) -> Result<Self, Error> {
        value
            .as_object()
            .map(Self)
            .ok_or_else(|| Error::expected("an object", value))
    }

    /// Member `name` as a `T`; a missing member reads as `null`, so it is
    /// fine for an `Option` and an error ("missing") for anything else.
    ///
    /// # Errors
    /// When the member is missing or has the wrong shape.
    pub fn get<T: FromJson>(&self, name: &str) -> Result<T, Error> {
        match self.0.get(name) {
            Some(value) => T::from_json(value).map_err(|e| e.within(name)),
            None => {
                T::from_json(&NULL).map_err(|_| Error::shape(format!("missing field `{name}`")))
            }
        }
    }

    /// Member `name` as a `T`, or `T::default()` when it is missing or `null`.
    ///
    /// # Errors
    /// When the member is there with the wrong shape.
    pub fn get_or_default<T: FromJson + Default>(&self, name: &str) -> Result<T, Error> {
        match self.0.get(name) {
            None | Some(Value::Null) => Ok(T::default()),
            Some(value) => T::from_json(value).map_err(|e| e.within(name)),
        }
    }
}

impl ToJson for Value {
    fn write_json(&self, w: &mut Writer) {
        match self {
            Self::Null => w.null(),
            Self::Bool(b) => w.bool(*b),
            Self::Number(n) => w.number(*n),
            Self::String(s) => w.string(s),
            Self::Array(items) => items.as_slice().write_json(w),
            Self::Object(map) => {
                w.begin_object();
                for (name, value) in map {
                    w.member(name, value);
                }
                w.end_object();
            }
        }
    }
}

impl FromJson for Value {
    fn from_json(value: &Value) -> Result<Self, Error> {
        Ok(value.clone())
    }
}

impl ToJson for str {
    fn write_json(&self, w: &mut Writer) {
        w.string(self);
    }
}

impl ToJson for String {
    fn write_json(&self, w: &mut Writer) {
        w.string(self);
    }
}

impl FromJson for String {
    fn from_json(value: &Value) -> Result<Self, Error> {
        value
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| Error::expected("a string", value))
    }
}

impl ToJson for bool {
    fn write_json(&self, w: &mut Writer) {
        w.bool(*self);
    }
}

impl FromJson for bool {
    fn from_json(value: &Value) -> Result<Self, Error> {
        value
            .as_bool()
            .ok_or_else(|| Error::expected("true or false", value))
    }
}

impl ToJson for f64 {
    fn write_json(&self, w: &mut Writer) {
        w.number(Number::Float(*self));
    }
}

impl FromJson for f64 {
    fn from_json(value: &Value) -> Result<Self, Error> {
        value
            .as_f64()
            .ok_or_else(|| Error::expected("a number", value))
    }
}

/// Whole numbers: written exactly, read only from integer literals in range.
macro_rules! json_integer {
    ($($ty:ty),*) => {$(
        impl ToJson for $ty {
            fn write_json(&self, w: &mut Writer) {
                let n = i64::try_from(*self).map_or(
                    Number::PosInt(u64::try_from(*self).unwrap_or(u64::MAX)),
                    |n| if n < 0 { Number::NegInt(n) } else { Number::PosInt(n.unsigned_abs()) },
                );
                w.number(n);
            }
        }

        impl FromJson for $ty {
            fn from_json(value: &Value) -> Result<Self, Error> {
                let n = match value {
                    Value::Number(Number::PosInt(n)) => <$ty>::try_from(*n).ok(),
                    Value::Number(Number::NegInt(n)) => <$ty>::try_from(*n).ok(),
                    _ => None,
                };
                n.ok_or_else(|| Error::expected(
                    concat!("a whole number that fits ", stringify!($ty)),
                    value,
                ))
            }
        }
    )*};
}

json_integer!(u8, u32, u64, usize, i32, i64);

impl<T: ToJson> ToJson for Option<T> {
    fn write_json(&self, w: &mut Writer) {
        match self {
            Some(value) => value.write_json(w),
            None => w.null(),
        }
    }
}

impl<T: FromJson> FromJson for Option<T> {
    fn from_json(value: &Value) -> Result<Self, Error> {
        match value {
            Value::Null => Ok(None),
            other => T::from_json(other).map(Some),
        }
    }
}

impl<T: ToJson> ToJson for [T] {
    fn write_json(&self, w: &mut Writer) {
        w.begin_array();
        for item in self {
            item.write_json(w);
        }
        w.end_array();
    }
}

impl<T: ToJson> ToJson for Vec<T> {
    fn write_json(&self, w: &mut Writer) {
        self.as_slice().write_json(w);
    }
}

impl<T: FromJson> FromJson for Vec<T> {
    fn from_json(value: &Value) -> Result<Self, Error> {
        let items = value
            .as_array()
            .ok_or_else(|| Error::expected("a list", value))?;
        items
            .iter()
            .enumerate()
            .map(|(i, item)| T::from_json(item).map_err(|e| e.within(&format!("[{i}]"))))
            .collect()
    }
}

impl<T: ToJson, const N: usize> ToJson for [T; N] {
    fn write_json(&self, w: &mut Writer) {
        self.as_slice().write_json(w);
    }
}

impl<T: FromJson, const N: usize> FromJson for [T; N] {
    fn from_json(value: &Value) -> Result<Self, Error> {
        let items: Vec<T> = Vec::from_json(value)?;
        items
            .try_into()
            .map_err(|_| Error::expected(&format!("a list of {N}"), value))
    }
}

impl<T: ToJson> ToJson for SmallMap<String, T> {
    fn write_json(&self, w: &mut Writer) {
        w.begin_object();
        for (name, value) in self.iter() {
            w.member(name, value);
        }
        w.end_object();
    }
}

impl<T: FromJson> FromJson for SmallMap<String, T> {
    fn from_json(value: &Value) -> Result<Self, Error> {
        let map = value
            .as_object()
            .ok_or_else(|| Error::expected("an object", value))?;
        let mut out = SmallMap::new();
        for (name, v) in map {
            out.insert(name.clone(), T::from_json(v).map_err(|e| e.within(name))?);
        }
        Ok(out)
    }
}

/// Implements [`ToJson`] and [`FromJson`] for a struct whose JSON form is an
/// object with one member per listed field, named like the field, in the
/// order listed. Fields after `;` may be missing when read (they take their
/// `Default`).
#[macro_export]
macro_rules! json_object {
    ($ty:ty { $($field:ident),* $(,)? $(; $($optional:ident),* $(,)?)? }) => {
        impl $crate::core::json::ToJson for $ty {
            fn write_json(&self, w: &mut $crate::core::json::Writer) {
                w.begin_object();
                $( w.member(stringify!($field), &self.$field); )*
                $($( w.member(stringify!($optional), &self.$optional); )*)?
                w.end_object();
            }
        }

        impl $crate::core::json::FromJson for $ty {
            fn from_json(
                value: &$crate::core::json::Value,
            ) -> Result<Self, $crate::core::json::Error> {
                let members = $crate::core::json::Members::of(value)?;
                Ok(Self {
                    $( $field: members.get(stringify!($field))?, )*
                    $($( $optional: members.get_or_default(stringify!($optional))?, )*)?
                })
            }
        }
    };
}

/// Implements [`ToJson`] and [`FromJson`] for a field-less `Copy` enum
/// written as one of the listed strings, and gives it `as_str()`, the
/// variant's name in exports.
#[macro_export]
macro_rules! json_enum {
    ($ty:ty { $first:ident = $first_name:literal $(, $variant:ident = $name:literal)* $(,)? }) => {
        impl $ty {
            /// The name used in exported documents.
            #[must_use]
            pub fn as_str(self) -> &'static str {
                match self {
                    Self::$first => $first_name,
                    $( Self::$variant => $name, )*
                }
            }
        }

        impl $crate::core::json::ToJson for $ty {
            fn write_json(&self, w: &mut $crate::core::json::Writer) {
                w.string(self.as_str());
            }
        }

        impl $crate::core::json::FromJson for $ty {
            fn from_json(
                value: &$crate::core::json::Value,
            ) -> Result<Self, $crate::core::json::Error> {
                match value.as_str() {
                    Some($first_name) => Ok(Self::$first),
                    $( Some($name) => Ok(Self::$variant), )*
                    _ => Err($crate::core::json::Error::expected(
                        concat!("one of \"", $first_name, "\"" $(, ", \"", $name, "\"")*),
                        value,
                    )),
                }
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_kind_of_value() {
        let v = parse(
            r#" {"a": [1, -2, 3.5, 1e3, true, false, null], "b": {"c": "d\n\u00e9\ud83d\ude00"}} "#,
        )
        .unwrap();
        assert_eq!(v["a"][0], Value::Number(Number::PosInt(1)));
        assert_eq!(v["a"][1], Value::Number(Number::NegInt(-2)));
        assert_eq!(v["a"][2].as_f64(), Some(3.5));
        assert_eq!(v["a"][3].as_f64(), Some(1000.0));
        assert_eq!(v["a"][3].as_u64(), None);
        assert_eq!(v["a"][4], Value::Bool(true));
        assert!(v["a"][6].is_null());
        assert_eq!(v["b"]["c"].as_str(), Some("d\né😀"));
        assert!(v["missing"]["deeper"][3].is_null());
    }

    #[test]
    fn refuses_what_rfc_8259_refuses() {
        for bad in [
            "",
            " ",
            "[1,]",
            "{\"a\":1,}",
            "01",
            "1.",
            ".5",
            "-",
            "+1",
            "1e",
            "[1 2]",
            "{a:1}",
            "\"\\x\"",
            "\"a\nb\"",
            "\"\\ud800\"",
            "\"\\udc00\"",
            "nul",
            "truex",
            "[",
            "{\"a\"",
            "1e400",
            "\"abc",
            "{} {}",
            "[\"\\u12\"]",
        ] {
            assert!(parse(bad).is_err(), "{bad:?} should not parse");
        }
    }

    #[test]
    fn reports_syntax_errors_with_line_and_column() {
        let e = parse("{\n  \"a\": 1,\n  \"b\" 2\n}").unwrap_err();
        assert_eq!(e.message(), "expected `:`");
        assert_eq!(e.position(), Some((3, 7)));
        assert_eq!(e.to_string(), "expected `:` at line 3 column 7");
    }

    #[test]
    fn refuses_nesting_deeper_than_the_limit() {
        let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        assert!(parse(&deep).is_err());
        let fine = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(parse(&fine).is_ok());
    }

    #[test]
    fn keeps_integers_exact_and_floats_round_tripping() {
        let v =
            parse("[18446744073709551615, -9223372036854775808, 18446744073709551616]").unwrap();
        assert_eq!(v[0].as_u64(), Some(u64::MAX));
        assert_eq!(v[1], Value::Number(Number::NegInt(i64::MIN)));
        assert_eq!(v[2].as_f64(), Some(18_446_744_073_709_551_616.0));
        for x in [
            0.1,
            1.0 / 3.0,
            350.0,
            -0.0,
            1e-7,
            5e-324,
            1.7976931348623157e308,
            1e21,
            123_456.789,
        ] {
            let text = to_string(&x);
            assert_eq!(
                parse(&text).unwrap().as_f64().unwrap().to_bits(),
                x.to_bits(),
                "{text}"
            );
        }
        assert_eq!(to_string(&350.0), "350.0");
        assert_eq!(to_string(&f64::NAN), "null");
        assert_eq!(to_string(&u64::MAX), "18446744073709551615");
        assert_eq!(to_string(&-5_i32), "-5");
    }

    #[test]
    fn writes_strings_with_the_escapes_json_needs() {
        let s = "quote \" backslash \\ newline \n tab \t bell \u{7} é 😀 </script>";
        let text = to_string(s);
        assert_eq!(
            text,
            "\"quote \\\" backslash \\\\ newline \\n tab \\t bell \\u0007 é 😀 </script>\""
        );
        assert_eq!(parse(&text).unwrap().as_str(), Some(s));
    }

    #[test]
    fn writes_compact_and_indented_layouts() {
        let v = json!({"a": [1_u32, {"b": null}], "e": [], "o": {}, "s": "x"});
        assert_eq!(
            v.to_string(),
            r#"{"a":[1,{"b":null}],"e":[],"o":{},"s":"x"}"#
        );
        assert_eq!(
            to_string_pretty(&v),
            "{\n  \"a\": [\n    1,\n    {\n      \"b\": null\n    }\n  ],\n  \"e\": [],\n  \"o\": {},\n  \"s\": \"x\"\n}"
        );
    }

    #[test]
    fn objects_keep_document_order_and_the_last_of_a_repeated_name() {
        let v = parse(r#"{"z": 1, "a": 2, "z": 3}"#).unwrap();
        let names: Vec<&String> = v.as_object().unwrap().iter().map(|(k, _)| k).collect();
        assert_eq!(names, ["z", "a"]);
        assert_eq!(v["z"].as_u64(), Some(3));
    }

    #[derive(Debug, PartialEq, Default)]
    struct Point {
        x: f64,
        label: Option<String>,
        tags: Vec<u32>,
        extra: u32,
    }
    json_object!(Point { x, label, tags; extra });

    #[derive(Debug, PartialEq, Clone, Copy)]
    enum Colour {
        DeepRed,
        Blue,
    }
    json_enum!(Colour { DeepRed = "deep_red", Blue = "blue" });

    #[test]
    fn objects_and_enums_round_trip_and_explain_bad_shapes() {
        let p = Point {
            x: 1.5,
            label: None,
            tags: vec![1, 2],
            extra: 7,
        };
        let text = to_string(&p);
        assert_eq!(text, r#"{"x":1.5,"label":null,"tags":[1,2],"extra":7}"#);
        assert_eq!(from_text::<Point>(&text).unwrap(), p);
        // Optional members may be missing; required ones may not (an Option reads as null).
        let read: Point = from_text(r#"{"x": 2, "tags": []}"#).unwrap();
        assert_eq!((read.x, read.label, read.extra), (2.0, None, 0));
        assert_eq!(
            from_text::<Point>(r#"{"label": "a", "tags": []}"#)
                .unwrap_err()
                .message(),
            "missing field `x`"
        );
        assert_eq!(
            from_text::<Point>(r#"{"x": 1, "tags": [1, "two"]}"#)
                .unwrap_err()
                .message(),
            "tags[1]: expected a whole number that fits u32, found \"two\""
        );
        assert_eq!(
            from_text::<Vec<Point>>(r#"[{"x": "1", "tags": []}]"#)
                .unwrap_err()
                .message(),
            "[0].x: expected a number, found \"1\""
        );
        assert_eq!(
            to_string(&[Colour::DeepRed, Colour::Blue]),
            r#"["deep_red","blue"]"#
        );
        assert_eq!(from_text::<Colour>("\"blue\"").unwrap(), Colour::Blue);
        assert_eq!(
            from_text::<Colour>("\"green\"").unwrap_err().message(),
            "expected one of \"deep_red\", \"blue\", found \"green\""
        );
        assert!(from_text::<u8>("256").is_err());
        assert!(from_text::<u32>("1.0").is_err());
        assert!(from_text::<u32>("-1").is_err());
        assert_eq!(from_text::<i32>("-1").unwrap(), -1);
        assert_eq!(from_text::<[u8; 2]>("[8, 20]").unwrap(), [8, 20]);
        assert!(from_text::<[u8; 2]>("[8]").is_err());
        let keys: SmallMap<String, String> = from_text(r#"{"openai":"k"}"#).unwrap();
        assert_eq!(keys.get("openai").map(String::as_str), Some("k"));
        assert_eq!(to_string(&keys), r#"{"openai":"k"}"#);
    }

    mod against_serde_json {
        use super::super::*;
        use proptest::prelude::*;

        /// Random JSON documents as serde_json builds them.
        fn document() -> impl Strategy<Value = serde_json::Value> {
            let leaf = prop_oneof![
                Just(serde_json::Value::Null),
                any::<bool>().prop_map(serde_json::Value::Bool),
                any::<u64>().prop_map(serde_json::Value::from),
                any::<i64>().prop_map(serde_json::Value::from),
                any::<f64>()
                    .prop_filter("finite", |x| x.is_finite())
                    .prop_map(serde_json::Value::from),
                any::<String>().prop_map(serde_json::Value::String),
            ];
            leaf.prop_recursive(4, 48, 6, |inner| {
                prop_oneof![
                    prop::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
                    prop::collection::btree_map(any::<String>(), inner, 0..6)
                        .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
                ]
            })
        }

        proptest! {
            /// serde_json's text reads here, and what is written here reads
            /// back in serde_json as the same document, numbers bit for bit.
            #[test]
            fn documents_round_trip_through_both(doc in document(), pretty in any::<bool>()) {
                let text = if pretty {
                    serde_json::to_string_pretty(&doc).unwrap()
                } else {
                    serde_json::to_string(&doc).unwrap()
                };
                let ours = parse(&text).unwrap();
                for written in [to_string(&ours), to_string_pretty(&ours)] {
                    let back: serde_json::Value = serde_json::from_str(&written).unwrap();
                    prop_assert_eq!(&back, &doc);
                }
                if pretty {
                    // Same layout, line by line (float digits may differ:
                    // `1e243` here, `1e+243` there).
                    let indents = |t: &str| -> Vec<usize> {
                        t.lines().map(|l| l.len() - l.trim_start().len()).collect()
                    };
                    prop_assert_eq!(indents(&to_string_pretty(&ours)), indents(&text));
                }
            }

            /// On JSON-like garbage both accept and refuse the same texts.
            #[test]
            fn both_refuse_the_same_texts(text in "[ \\[\\]{}:,\"a-c0-9.eE+\\-ntrulfs\\\\/u]{0,24}") {
                let theirs = serde_json::from_str::<serde_json::Value>(&text).is_ok();
                prop_assert_eq!(parse(&text).is_ok(), theirs, "{:?}", text);
            }
        }
    }
}
