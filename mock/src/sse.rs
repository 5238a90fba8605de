//! Server-sent event framing: turns one event into the bytes of one write, and, for the `split`
//! script, cuts those bytes at the offsets a careless decoder gets wrong.
//!
//! The app's decoder (`core::wire::sse`) must cope with any line ending and any split of the bytes across
//! reads; these are the framings the mock produces so the end-to-end tests exercise exactly that.

/// Line terminator used when serialising events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineEnd {
    /// `\n`, what most providers send.
    Lf,
    /// `\r\n`, legal per the event-stream grammar and sent by some proxies.
    CrLf,
}

impl LineEnd {
    fn as_str(self) -> &'static str {
        match self {
            LineEnd::Lf => "\n",
            LineEnd::CrLf => "\r\n",
        }
    }
}

/// One server-sent event, or a comment line, as it goes on the wire.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SseEvent {
    /// A `: text` comment line, which decoders must ignore (used as a keep-alive).
    Comment(String),
    /// An event: optional `event:` name and one `data:` line holding JSON or `[DONE]`.
    Data {
        /// The `event:` field, when the protocol names its events (Anthropic).
        name: Option<&'static str>,
        /// The `data:` payload; never contains a line break.
        data: String,
    },
}

impl SseEvent {
    /// A `data:`-only event.
    pub fn data(data: impl Into<String>) -> Self {
        SseEvent::Data {
            name: None,
            data: data.into(),
        }
    }

    /// An event with an `event:` name and a `data:` line.
    pub fn named(name: &'static str, data: impl Into<String>) -> Self {
        SseEvent::Data {
            name: Some(name),
            data: data.into(),
        }
    }

    /// The event's bytes, including the blank line that dispatches it.
    pub fn to_bytes(&self, line_end: LineEnd) -> Vec<u8> {
        let end = line_end.as_str();
        let text = match self {
            SseEvent::Comment(text) => format!(": {text}{end}{end}"),
            SseEvent::Data {
                name: Some(name),
                data,
            } => format!("event: {name}{end}data: {data}{end}{end}"),
            SseEvent::Data { name: None, data } => format!("data: {data}{end}{end}"),
        };
        text.into_bytes()
    }
}

/// Offsets (bytes, strictly inside `bytes`, ascending) at which the `split` script cuts one event
/// into separate writes: inside the `data:` field name, between the `\r` and `\n` of the first line
/// end, inside the first multi-byte UTF-8 character, and before the final line feed.
///
/// Each cut defeats a different shortcut: matching `data:` per read, treating a lone `\r` as a line
/// end and then the `\n` as an empty line (which dispatches an Anthropic event before its data),
/// decoding each read as UTF-8 on its own, and expecting the blank line in the same read.
pub fn awkward_cut_offsets(bytes: &[u8]) -> Vec<usize> {
    let mut cuts = Vec::with_capacity(4);
    if let Some(at) = find(bytes, b"data:") {
        cuts.push(at + 2);
    }
    if let Some(at) = find(bytes, b"\r\n") {
        cuts.push(at + 1);
    }
    // A lead byte of a multi-byte character is 0b11xx_xxxx; cutting after it leaves the
    // continuation bytes for the next write.
    if let Some(at) = bytes.iter().position(|&byte| byte >= 0xC0) {
        cuts.push(at + 1);
    }
    cuts.push(bytes.len().saturating_sub(1));
    cuts.retain(|&at| at > 0 && at < bytes.len());
    cuts.sort_unstable();
    cuts.dedup();
    cuts
}

/// `bytes` cut at `offsets` (ascending, inside the slice) into consecutive pieces.
pub fn cut_at<'a>(bytes: &'a [u8], offsets: &[usize]) -> Vec<&'a [u8]> {
    let mut pieces = Vec::with_capacity(offsets.len() + 1);
    let mut start = 0;
    for &offset in offsets {
        if offset > start && offset < bytes.len() {
            pieces.push(&bytes[start..offset]);
            start = offset;
        }
    }
    pieces.push(&bytes[start..]);
    pieces
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn named_event_with_crlf() {
        let event = SseEvent::named("ping", r#"{"type":"ping"}"#);
        assert_eq!(
            event.to_bytes(LineEnd::CrLf),
            b"event: ping\r\ndata: {\"type\":\"ping\"}\r\n\r\n".to_vec()
        );
    }

    #[test]
    fn comment_with_lf() {
        let event = SseEvent::Comment("keep-alive".into());
        assert_eq!(event.to_bytes(LineEnd::Lf), b": keep-alive\n\n".to_vec());
    }

    #[test]
    fn cuts_fall_inside_data_crlf_and_utf8() {
        let bytes =
            SseEvent::named("content_block_delta", r#"{"text":" é"}"#).to_bytes(LineEnd::CrLf);
        let cuts = awkward_cut_offsets(&bytes);
        let pieces = cut_at(&bytes, &cuts);
        // The first line's CR ends a piece and its LF starts the next one.
        assert!(
            pieces
                .iter()
                .any(|piece| piece.ends_with(b"content_block_delta\r"))
        );
        assert!(
            pieces
                .iter()
                .any(|piece| piece.starts_with(b"\ndata") || piece.starts_with(b"\nda"))
        );
        // "data:" is cut after "da".
        assert!(pieces.iter().any(|piece| piece.ends_with(b"da")));
        // Some piece is not valid UTF-8 on its own: a character was cut.
        assert!(
            pieces
                .iter()
                .any(|piece| std::str::from_utf8(piece).is_err())
        );
        assert!(pieces.len() >= 4, "{pieces:?}");
    }

    proptest! {
        #[test]
        fn pieces_reassemble_to_the_event(text in "\\PC{0,40}", crlf in any::<bool>()) {
            let line_end = if crlf { LineEnd::CrLf } else { LineEnd::Lf };
            let data = serde_json::json!({ "text": text }).to_string();
            let bytes = SseEvent::named("message", data).to_bytes(line_end);
            let cuts = awkward_cut_offsets(&bytes);
            prop_assert!(cuts.windows(2).all(|pair| pair[0] < pair[1]));
            let pieces = cut_at(&bytes, &cuts);
            prop_assert!(pieces.iter().all(|piece| !piece.is_empty()));
            prop_assert_eq!(pieces.concat(), bytes);
        }
    }
}
