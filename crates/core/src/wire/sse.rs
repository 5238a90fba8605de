//! An incremental decoder for `text/event-stream` bodies, following the
//! WHATWG "server-sent events" parsing rules.
//!
//! Every provider streams its reply as server-sent events, and the browser
//! hands the body over in chunks cut wherever the network cut them: in the
//! middle of a line, between the CR and the LF of a CRLF, or inside a
//! multi-byte UTF-8 character. The decoder therefore keeps raw bytes until a
//! line is complete and only then decodes it, so the events it yields never
//! depend on how the body was split.
//!
//! What it handles, as the standard says:
//! - LF, CR and CRLF line ends, mixed freely, including a CR that ends one
//!   chunk and an LF that starts the next (one line end, not two);
//! - a UTF-8 byte order mark at the very start of the stream (dropped);
//! - `:` comment lines (counted: keep-alives are worth knowing about);
//! - `event:`, `data:` (several lines joined with `\n`), `id:` and `retry:`;
//!   one space after the colon is dropped, unknown fields are ignored;
//! - an event is dispatched on a blank line, and only if it had a `data`
//!   field;
//! - invalid UTF-8 becomes U+FFFD, never a panic.
//!
//! Cost: one pass over the bytes with slice searches; bytes are copied only
//! when a line straddles two chunks, and allocation happens per event (its
//! `data` string), never per byte.

/// The UTF-8 byte order mark, which the standard allows once at the start.
const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";

/// The longest line the decoder keeps, in bytes: 4 MiB, far above any
/// real event (a chunk of a streamed reply is a few hundred bytes; a large
/// tool-call fragment tens of kilobytes). A stream that sends a longer line,
/// or never ends one, is malformed; the decoder then keeps no more of it,
/// so a hostile or broken server cannot make it hold the body in memory.
pub const MAX_LINE_BYTES: usize = 4 * 1024 * 1024;

/// One dispatched server-sent event.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct SseEvent {
    /// The `event:` name, or `None` for the default type (`message`).
    pub event: Option<String>,
    /// The `data:` lines joined with `\n` (no trailing newline).
    pub data: String,
    /// The last event id seen so far in the stream (ids persist across
    /// events, as the standard says), or `None` when none was set or it was
    /// set to the empty string.
    pub id: Option<String>,
}

/// Incremental event-stream decoder: feed it byte chunks as they arrive.
#[derive(Clone, Debug)]
pub struct SseDecoder {
    /// Bytes of a line whose end has not arrived yet.
    partial_line: Vec<u8>,
    /// The previous chunk ended with a CR: an LF at the start of the next
    /// chunk completes that CRLF instead of ending an empty line.
    pending_cr: bool,
    /// No line has completed yet: the byte order mark may still be present.
    at_stream_start: bool,
    /// The event type buffer of the standard.
    event_type: String,
    /// The data buffer of the standard: each `data:` value plus `\n`.
    data: String,
    /// The last event id buffer of the standard; persists across events.
    last_event_id: String,
    /// Reconnection time sent by `retry:`, in ms (not used for reconnecting:
    /// a measurement never reconnects, but it is decoded and kept).
    retry_ms: Option<u64>,
    /// Number of `:` comment lines seen.
    comments_seen: u64,
    /// Number of events dispatched.
    events_dispatched: u64,
    /// A line grew past [`MAX_LINE_BYTES`]: nothing more is decoded.
    overflowed: bool,
}

impl Default for SseDecoder {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn default() -> Self {
        Self::new()
    }
}

impl SseDecoder {
    /// A decoder at the start of a stream.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn new() -> Self {
        Self {
            partial_line: Vec::new(),
            pending_cr: false,
            at_stream_start: true,
            event_type: String::new(),
            data: String::new(),
            last_event_id: String::new(),
            retry_ms: None,
            comments_seen: 0,
            events_dispatched: 0,
            overflowed: false,
        }
    }

    /// Decodes the next chunk of the body, appending every event completed
    /// by it to `out` (in stream order). Any split of the body into chunks
    /// yields the same events.
    ///
    /// # Examples
    ///
    /// Chunks end wherever the network cut them, here in the middle of a
    /// line; an event comes out once its blank line has arrived:
    ///
    /// ```
    /// use firsttoken_core::wire::sse::SseDecoder;
    ///
    /// let mut decoder = SseDecoder::new();
    /// let mut events = Vec::new();
    /// decoder.feed(b": keep-alive\n\nevent: delta\nda", &mut events);
    /// assert!(events.is_empty());
    /// decoder.feed(b"ta: {\"text\":\"Hi\"}\r\n\r\ndata: [DONE]\n\n", &mut events);
    /// assert_eq!(events.len(), 2);
    /// assert_eq!(events[0].event.as_deref(), Some("delta"));
    /// assert_eq!(events[0].data, r#"{"text":"Hi"}"#);
    /// assert_eq!(events[1].data, "[DONE]");
    /// assert_eq!(decoder.comments_seen(), 1);
    /// ```
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn feed(&mut self, chunk: &[u8], out: &mut Vec<SseEvent>) {
        if self.overflowed {
            return;
        }
        let mut rest = chunk;
        // A CR ended the previous chunk: an LF starting this one belongs to
        // it. An empty chunk says nothing yet, so the CR stays pending.
        if self.pending_cr
            && let Some((&first, after_first)) = rest.split_first()
        {
            self.pending_cr = false;
            if first == b'\n' {
                rest = after_first;
            }
        }
        while let Some(end) = find_line_end(rest) {
            let (line, terminator_and_after) = rest.split_at(end);
            let mut after = terminator_and_after.get(1..).unwrap_or_default();
            if terminator_and_after.first() == Some(&b'\r') {
                match after.split_first() {
                    Some((b'\n', after_lf)) => after = after_lf,
                    Some(_) => {}
                    None => self.pending_cr = true,
                }
            }
            if self.partial_line.is_empty() {
                self.process_line(line, out);
            } else {
                // The line began in an earlier chunk: complete it in the
                // carried buffer, then give the buffer back to keep its
                // capacity for the next straddling line.
                let mut whole = std::mem::take(&mut self.partial_line);
                whole.extend_from_slice(line);
                self.process_line(&whole, out);
                whole.clear();
                self.partial_line = whole;
            }
            rest = after;
        }
        if self.partial_line.len() + rest.len() > MAX_LINE_BYTES {
            // Give the memory back and stop: the caller reports the stream
            // as malformed (see `overflowed`).
            self.overflowed = true;
            self.partial_line = Vec::new();
            return;
        }
        self.partial_line.extend_from_slice(rest);
    }

    /// Whether a line grew past [`MAX_LINE_BYTES`] without ending: the
    /// stream is malformed, and the decoder ignores the rest of it.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// Signals the end of the body.
    ///
    /// As the standard says, an event whose terminating blank line never
    /// arrived is discarded, and so is an unterminated last line: nothing
    /// is appended to `out` (the parameter keeps the call shape of
    /// [`SseDecoder::feed`]). Call [`SseDecoder::has_pending_data`] first to
    /// learn whether the body was cut in the middle of an event.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn finish(&mut self, out: &mut Vec<SseEvent>) {
        // Every complete event was already dispatched by `feed`.
        let _ = out;
        self.partial_line.clear();
        self.pending_cr = false;
        self.event_type.clear();
        self.data.clear();
    }

    /// Whether the body so far ends in the middle of an event: an
    /// unterminated line, or fields not yet closed by a blank line.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn has_pending_data(&self) -> bool {
        let partial = if self.at_stream_start {
            // A lone (possibly partial) byte order mark is not data.
            !BYTE_ORDER_MARK.starts_with(&self.partial_line)
        } else {
            !self.partial_line.is_empty()
        };
        partial || !self.data.is_empty() || !self.event_type.is_empty()
    }

    /// Number of `:` comment lines (keep-alives) seen so far.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn comments_seen(&self) -> u64 {
        self.comments_seen
    }

    /// Number of events dispatched so far.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn events_dispatched(&self) -> u64 {
        self.events_dispatched
    }

    /// The last `retry:` value, in ms, if the stream sent one.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn retry_ms(&self) -> Option<u64> {
        self.retry_ms
    }

    /// Interprets one complete line (without its terminator).
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn process_line(&mut self, line: &[u8], out: &mut Vec<SseEvent>) {
        let line = if self.at_stream_start {
            self.at_stream_start = false;
            line.strip_prefix(BYTE_ORDER_MARK).unwrap_or(line)
        } else {
            line
        };
        let Some(&first) = line.first() else {
            self.dispatch(out);
            return;
        };
        if first == b':' {
            self.comments_seen += 1;
            return;
        }
        let (name, value) = match line.iter().position(|&b| b == b':') {
            Some(colon) => {
                let (name, colon_and_value) = line.split_at(colon);
                let value = colon_and_value.get(1..).unwrap_or_default();
                (name, value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &[][..]),
        };
        match name {
            b"data" => {
                push_lossy(&mut self.data, value);
                self.data.push('\n');
            }
            b"event" => {
                self.event_type.clear();
                push_lossy(&mut self.event_type, value);
            }
            // The standard ignores an id containing NUL.
            b"id" if !value.contains(&0) => {
                self.last_event_id.clear();
                push_lossy(&mut self.last_event_id, value);
            }
            b"retry" if !value.is_empty() && value.iter().all(u8::is_ascii_digit) => {
                let retry_ms = value.iter().fold(0_u64, |acc, &digit| {
                    acc.saturating_mul(10)
                        .saturating_add(u64::from(digit - b'0'))
                });
                self.retry_ms = Some(retry_ms);
            }
            _ => {}
        }
    }

    /// Dispatches the buffered event on a blank line, if it has data.
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn dispatch(&mut self, out: &mut Vec<SseEvent>) {
        if self.data.is_empty() {
            self.event_type.clear();
            return;
        }
        // Every data line added a `\n`; the last one is not part of the data.
        self.data.pop();
        let event = (!self.event_type.is_empty()).then(|| std::mem::take(&mut self.event_type));
        let id = (!self.last_event_id.is_empty()).then(|| self.last_event_id.clone());
        out.push(SseEvent {
            event,
            data: std::mem::take(&mut self.data),
            id,
        });
        self.events_dispatched += 1;
    }
}

/// Position of the first CR or LF in `bytes`.
#[cfg_attr(target_arch = "wasm32", inline)]
fn find_line_end(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == b'\n' || b == b'\r')
}

/// Appends `bytes` decoded as UTF-8, invalid sequences replaced by U+FFFD.
///
/// Decoding a whole line at a time gives the same text as decoding the
/// whole body: line ends are ASCII, and an ASCII byte always ends an invalid
/// sequence.
#[cfg_attr(target_arch = "wasm32", inline)]
fn push_lossy(target: &mut String, bytes: &[u8]) {
    match std::str::from_utf8(bytes) {
        Ok(text) => target.push_str(text),
        Err(_) => target.push_str(&String::from_utf8_lossy(bytes)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn decode_whole(bytes: &[u8]) -> Vec<SseEvent> {
        let mut decoder = SseDecoder::new();
        let mut out = Vec::new();
        decoder.feed(bytes, &mut out);
        decoder.finish(&mut out);
        out
    }

    fn decode_split(bytes: &[u8], cuts: &[usize]) -> Vec<SseEvent> {
        let mut decoder = SseDecoder::new();
        let mut out = Vec::new();
        let mut start = 0;
        let mut cuts: Vec<usize> = cuts.iter().map(|&c| c.min(bytes.len())).collect();
        cuts.sort_unstable();
        for cut in cuts {
            decoder.feed(&bytes[start..cut], &mut out);
            start = cut;
        }
        decoder.feed(&bytes[start..], &mut out);
        decoder.finish(&mut out);
        out
    }

    fn event(name: Option<&str>, data: &str, id: Option<&str>) -> SseEvent {
        SseEvent {
            event: name.map(str::to_owned),
            data: data.to_owned(),
            id: id.map(str::to_owned),
        }
    }

    #[test]
    fn decodes_simple_data_events() {
        let events = decode_whole(b"data: one\n\ndata: two\n\n");
        assert_eq!(
            events,
            vec![event(None, "one", None), event(None, "two", None)]
        );
    }

    #[test]
    fn joins_multi_line_data_with_newline() {
        let events = decode_whole(b"data: a\ndata:b\ndata:  c\n\n");
        assert_eq!(events, vec![event(None, "a\nb\n c", None)]);
    }

    #[test]
    fn accepts_cr_and_crlf_line_ends() {
        let events = decode_whole(b"event: x\rdata: a\r\rdata: b\r\n\r\ndata: c\n\n");
        assert_eq!(
            events,
            vec![
                event(Some("x"), "a", None),
                event(None, "b", None),
                event(None, "c", None)
            ]
        );
    }

    #[test]
    fn crlf_split_between_chunks_is_one_line_end() {
        let mut decoder = SseDecoder::new();
        let mut out = Vec::new();
        decoder.feed(b"data: a\r", &mut out);
        decoder.feed(b"\ndata: b\r", &mut out);
        decoder.feed(b"\n\r", &mut out);
        assert_eq!(out, vec![event(None, "a\nb", None)]);
        // The CR dispatched the event; a following LF belongs to it.
        decoder.feed(b"\n", &mut out);
        assert_eq!(out.len(), 1);
        assert!(!decoder.has_pending_data());
    }

    #[test]
    fn counts_comments_and_ignores_them() {
        let mut decoder = SseDecoder::new();
        let mut out = Vec::new();
        decoder.feed(
            b": keep-alive\n\n:\n: OPENROUTER PROCESSING\n\ndata: x\n\n",
            &mut out,
        );
        assert_eq!(decoder.comments_seen(), 3);
        assert_eq!(out, vec![event(None, "x", None)]);
    }

    #[test]
    fn strips_a_leading_bom_split_across_chunks() {
        let bytes = b"\xEF\xBB\xBFdata: x\n\n";
        for cut in 0..bytes.len() {
            assert_eq!(
                decode_split(bytes, &[cut]),
                vec![event(None, "x", None)],
                "cut {cut}"
            );
        }
        // Only one, and only at the very start.
        assert_eq!(decode_whole(b"data: a\n\n\xEF\xBB\xBFdata: b\n\n").len(), 1);
    }

    #[test]
    fn event_without_data_is_not_dispatched_but_empty_data_is() {
        assert!(decode_whole(b"event: ping\n\n").is_empty());
        assert_eq!(decode_whole(b"data\n\n"), vec![event(None, "", None)]);
        assert_eq!(decode_whole(b"data:\n\n"), vec![event(None, "", None)]);
        // The event type does not leak into the next event.
        assert_eq!(
            decode_whole(b"event: ping\n\ndata: x\n\n"),
            vec![event(None, "x", None)]
        );
    }

    #[test]
    fn ids_persist_and_can_be_reset() {
        let events =
            decode_whole(b"id: 7\ndata: a\n\ndata: b\n\nid\ndata: c\n\nid: 1\0\ndata: d\n\n");
        assert_eq!(
            events,
            vec![
                event(None, "a", Some("7")),
                event(None, "b", Some("7")),
                event(None, "c", None),
                event(None, "d", None),
            ]
        );
    }

    #[test]
    fn retry_keeps_only_digit_values() {
        let mut decoder = SseDecoder::new();
        let mut out = Vec::new();
        decoder.feed(b"retry: 1500\n", &mut out);
        assert_eq!(decoder.retry_ms(), Some(1500));
        decoder.feed(b"retry: 15x\nretry:\n", &mut out);
        assert_eq!(decoder.retry_ms(), Some(1500));
        decoder.feed(b"retry: 99999999999999999999999\n", &mut out);
        assert_eq!(decoder.retry_ms(), Some(u64::MAX));
    }

    #[test]
    fn only_one_space_after_the_colon_is_stripped() {
        assert_eq!(
            decode_whole(b"data:   x \n\n"),
            vec![event(None, "  x ", None)]
        );
        assert_eq!(
            decode_whole(b"data:\tx\n\n"),
            vec![event(None, "\tx", None)]
        );
    }

    #[test]
    fn unknown_fields_and_colonless_lines_are_ignored() {
        let events = decode_whole(b"foo: bar\nDATA: no\nevent\ndata: y\n\n");
        assert_eq!(events, vec![event(None, "y", None)]);
    }

    #[test]
    fn utf8_split_inside_a_character_decodes_whole() {
        let text = "data: é€😀中\n\n".as_bytes();
        for cut in 0..=text.len() {
            assert_eq!(
                decode_split(text, &[cut]),
                vec![event(None, "é€😀中", None)]
            );
        }
    }

    #[test]
    fn invalid_utf8_becomes_replacement_characters() {
        assert_eq!(
            decode_whole(b"data: a\xFFb\xE2\x82\n\n"),
            vec![event(None, "a\u{FFFD}b\u{FFFD}", None)]
        );
        assert_eq!(
            decode_whole(b"event: \xC0\ndata: x\n\n")[0]
                .event
                .as_deref(),
            Some("\u{FFFD}")
        );
    }

    #[test]
    fn unterminated_last_event_is_dropped_and_reported_pending() {
        let mut decoder = SseDecoder::new();
        let mut out = Vec::new();
        decoder.feed(b"data: a\n\ndata: b\n", &mut out);
        assert!(decoder.has_pending_data());
        decoder.finish(&mut out);
        assert_eq!(out, vec![event(None, "a", None)]);
        assert!(!decoder.has_pending_data());

        let mut partial_line = SseDecoder::new();
        partial_line.feed(b"data: {\"choi", &mut out);
        assert!(partial_line.has_pending_data());

        let mut only_bom = SseDecoder::new();
        only_bom.feed(b"\xEF\xBB", &mut out);
        assert!(!only_bom.has_pending_data());

        let mut complete = SseDecoder::new();
        complete.feed(b": hi\ndata: a\n\n", &mut out);
        assert!(!complete.has_pending_data());
        assert_eq!(complete.events_dispatched(), 1);
    }

    /// One line of a generated stream.
    #[derive(Clone, Debug)]
    enum Line {
        Data(String),
        Event(String),
        Id(String),
        Retry(u32),
        Comment(String),
        Unknown(String),
        Blank,
    }

    fn text() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![
                Just('a'),
                Just('Z'),
                Just(' '),
                Just(':'),
                Just('{'),
                Just('"'),
                Just('é'),
                Just('€'),
                Just('😀'),
                Just('中'),
                Just('\t'),
            ],
            0..10,
        )
        .prop_map(|chars| chars.into_iter().collect())
    }

    fn line() -> impl Strategy<Value = Line> {
        prop_oneof![
            4 => text().prop_map(Line::Data),
            1 => text().prop_map(Line::Event),
            1 => text().prop_map(Line::Id),
            1 => (0_u32..100_000).prop_map(Line::Retry),
            1 => text().prop_map(Line::Comment),
            1 => text().prop_map(Line::Unknown),
            3 => Just(Line::Blank),
        ]
    }

    /// Serializes lines with the chosen line ends (0 LF, 1 CR, 2 CRLF).
    fn serialize(bom: bool, lines: &[(Line, u8)]) -> Vec<u8> {
        let mut bytes = Vec::new();
        if bom {
            bytes.extend_from_slice(BYTE_ORDER_MARK);
        }
        let mut previous_ended_with_cr = false;
        for (line, ending) in lines {
            let (field, value) = match line {
                Line::Data(v) => ("data", v.clone()),
                Line::Event(v) => ("event", v.clone()),
                Line::Id(v) => ("id", v.clone()),
                Line::Retry(v) => ("retry", v.to_string()),
                Line::Comment(v) => ("", v.clone()),
                Line::Unknown(v) => ("x-unknown", v.clone()),
                Line::Blank => ("", String::new()),
            };
            match line {
                Line::Blank => {}
                Line::Comment(_) => {
                    bytes.push(b':');
                    bytes.extend_from_slice(value.as_bytes());
                }
                _ => {
                    bytes.extend_from_slice(field.as_bytes());
                    // Always write the separating space: a value that starts
                    // with a space keeps it.
                    bytes.extend_from_slice(b": ");
                    bytes.extend_from_slice(value.as_bytes());
                }
            }
            let is_empty = matches!(line, Line::Blank);
            // An LF right after a CR would join into one CRLF line end.
            let ending = if previous_ended_with_cr && is_empty && *ending == 0 {
                1
            } else {
                *ending
            };
            match ending {
                0 => bytes.push(b'\n'),
                1 => bytes.push(b'\r'),
                _ => bytes.extend_from_slice(b"\r\n"),
            }
            previous_ended_with_cr = ending == 1;
        }
        bytes
    }

    /// The events the standard says these lines make: an independent oracle.
    fn expected_events(lines: &[(Line, u8)]) -> Vec<SseEvent> {
        let mut events = Vec::new();
        let (mut data, mut name, mut id) = (None::<Vec<String>>, String::new(), String::new());
        for (line, _) in lines {
            match line {
                Line::Data(v) => data.get_or_insert_with(Vec::new).push(v.clone()),
                Line::Event(v) => name.clone_from(v),
                Line::Id(v) => id.clone_from(v),
                Line::Blank => {
                    if let Some(lines) = data.take() {
                        events.push(SseEvent {
                            event: (!name.is_empty()).then(|| name.clone()),
                            data: lines.join("\n"),
                            id: (!id.is_empty()).then(|| id.clone()),
                        });
                    }
                    name.clear();
                }
                Line::Retry(_) | Line::Comment(_) | Line::Unknown(_) => {}
            }
        }
        events
    }

    fn stream() -> impl Strategy<Value = (bool, Vec<(Line, u8)>)> {
        (
            any::<bool>(),
            proptest::collection::vec((line(), 0_u8..3), 0..40),
        )
    }

    #[test]
    fn an_empty_chunk_between_cr_and_lf_keeps_them_one_line_end() {
        let mut decoder = SseDecoder::new();
        let mut out = Vec::new();
        decoder.feed(b"data: aaa\r", &mut out);
        decoder.feed(b"", &mut out);
        decoder.feed(b"\n", &mut out);
        assert!(
            out.is_empty(),
            "CR, empty chunk, LF is one line end, not a blank line: {out:?}"
        );
        decoder.feed(b"\r\n", &mut out);
        assert_eq!(out.len(), 1);
    }

    proptest! {
        #[test]
        fn random_streams_decode_as_the_standard_says((bom, lines) in stream()) {
            let bytes = serialize(bom, &lines);
            prop_assert_eq!(decode_whole(&bytes), expected_events(&lines));
        }

        #[test]
        fn any_split_gives_the_same_events(
            (bom, lines) in stream(),
            cuts in proptest::collection::vec(any::<prop::sample::Index>(), 0..12),
        ) {
            let bytes = serialize(bom, &lines);
            let cuts: Vec<usize> = cuts.iter().map(|c| c.index(bytes.len() + 1)).collect();
            prop_assert_eq!(decode_split(&bytes, &cuts), decode_whole(&bytes));
        }

        #[test]
        fn every_single_split_point_gives_the_same_events(
            (bom, lines) in (any::<bool>(), proptest::collection::vec((line(), 0_u8..3), 0..8)),
        ) {
            let bytes = serialize(bom, &lines);
            let whole = decode_whole(&bytes);
            for cut in 0..=bytes.len() {
                prop_assert_eq!(&decode_split(&bytes, &[cut]), &whole, "cut at {}", cut);
            }
            let one_byte_at_a_time: Vec<usize> = (0..bytes.len()).collect();
            prop_assert_eq!(decode_split(&bytes, &one_byte_at_a_time), whole);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(10_000))]

        #[test]
        fn arbitrary_bytes_never_panic_and_split_freely(
            bytes in proptest::collection::vec(
                prop_oneof![
                    4 => any::<u8>(),
                    1 => Just(b'\n'),
                    1 => Just(b'\r'),
                    1 => Just(b':'),
                ],
                0..200,
            ),
            cuts in proptest::collection::vec(any::<prop::sample::Index>(), 0..8),
        ) {
            let cuts: Vec<usize> = cuts.iter().map(|c| c.index(bytes.len() + 1)).collect();
            let mut decoder = SseDecoder::new();
            let mut out = Vec::new();
            decoder.feed(&bytes, &mut out);
            let _ = decoder.has_pending_data();
            decoder.finish(&mut out);
            prop_assert_eq!(decode_split(&bytes, &cuts), out);
        }
    }

    #[test]
    fn an_endless_line_stops_the_decoder_and_frees_its_buffer() {
        let mut decoder = SseDecoder::new();
        let mut out = Vec::new();
        decoder.feed(b"data: a\n\n", &mut out);
        assert_eq!(out.len(), 1);
        let chunk = vec![b'x'; 1024 * 1024];
        for _ in 0..4 {
            decoder.feed(&chunk, &mut out);
            assert!(!decoder.overflowed());
        }
        decoder.feed(b"x", &mut out);
        assert!(decoder.overflowed());
        assert_eq!(decoder.partial_line.capacity(), 0);
        // Nothing after it is decoded, even a well-formed event.
        decoder.feed(b"\ndata: b\n\n", &mut out);
        assert_eq!(out.len(), 1);
    }
}
