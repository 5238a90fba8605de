//! Ground truth: what the mock received and when it sent each part of each reply, on its own
//! monotonic clock. End-to-end tests and the accuracy benchmark compare the app's measurements
//! against these records.

use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// The mock's clock: milliseconds since the mock started, from a monotonic [`Instant`].
#[derive(Clone, Copy, Debug)]
pub struct MockClock {
    started_at: Instant,
}

impl MockClock {
    /// A clock whose zero is now.
    pub fn start() -> Self {
        MockClock {
            started_at: Instant::now(),
        }
    }

    /// Milliseconds from the clock's zero to `instant`, at microsecond resolution (0 for
    /// instants before the zero).
    pub fn ms_at(&self, instant: Instant) -> f64 {
        let micros = instant
            .saturating_duration_since(self.started_at)
            .as_micros();
        // Microseconds fit f64 exactly for 285 years.
        micros as f64 / 1_000.0
    }

    /// Milliseconds since the clock's zero.
    pub fn now_ms(&self) -> f64 {
        self.ms_at(Instant::now())
    }
}

/// How a reply ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Still being sent.
    InProgress,
    /// The whole reply was sent (including scripted error replies and error events).
    Complete,
    /// The `cut` script closed the socket mid-stream.
    Cut,
    /// A write failed or the stalled client went away before the reply ended.
    ClientGone,
    /// `stall` held the connection for its full ten minutes, or the mock shut down.
    StallTimeout,
}

/// One model request (the `/v1/...` routes), in arrival order. Times are ms on the mock clock.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RequestRecord {
    /// The mock's id for this request, also sent as the `x-mock-request-id` header.
    pub id: u64,
    /// `openai`, `anthropic` or `gemini`.
    pub protocol: String,
    /// Full request target, path and query, as received (to check keys never travel in it).
    pub path: String,
    /// The model name as requested, if any.
    pub model: Option<String>,
    /// Canonical script name (`fixed@40`), `None` when the model named no script.
    pub script: Option<String>,
    /// Which credential header arrived: `authorization`, `x-api-key`, `x-goog-api-key` or
    /// `none`. The value itself is never recorded.
    pub auth: String,
    /// Whether the query string carried a `key=` parameter.
    pub key_in_query: bool,
    /// The full request (head and body) had been read.
    pub received_ms: f64,
    /// The response head had been written.
    pub headers_ms: Option<f64>,
    /// The first body chunk had been written.
    pub first_byte_ms: Option<f64>,
    /// The write of the chunk completing the first content token had returned.
    pub first_token_ms: Option<f64>,
    /// The write of the chunk completing the first reasoning delta had returned.
    pub first_reasoning_ms: Option<f64>,
    /// The reply ended: terminator written, socket cut, or client gone.
    pub end_ms: Option<f64>,
    /// The first content token was scheduled this long after `received_ms`, ms.
    pub scripted_first_token_ms: Option<f64>,
    /// For `bimodal`: whether the request drew a cold start.
    pub cold: Option<bool>,
    /// The output token count the reply's usage block reported (OpenAI `completion_tokens`,
    /// Anthropic `output_tokens`, Gemini `candidatesTokenCount`); `None` when none was sent.
    pub output_tokens: Option<u32>,
    /// The cached prompt tokens the reply's usage reported (OpenAI
    /// `prompt_tokens_details.cached_tokens`, Anthropic `cache_read_input_tokens`, Gemini
    /// `cachedContentTokenCount`); `None` when it reported no cache field.
    pub cached_tokens: Option<u32>,
    /// The prompt token count the reply's usage reported (OpenAI `prompt_tokens`, Anthropic
    /// `input_tokens` with the cache reads and writes, Gemini `promptTokenCount`); `None` when
    /// none was sent. Absent from records of older mocks.
    #[serde(default)]
    pub prompt_tokens: Option<u32>,
    /// The fidelity probe the reply answered (`faithful`, `degraded`); `None` for any other
    /// prompt or script.
    #[serde(default)]
    pub probe: Option<String>,
    /// Whether that probe was answered wrong on purpose (`degraded`); `None` without a probe.
    #[serde(default)]
    pub probe_answered_wrong: Option<bool>,
    /// Content deltas actually sent. A function call's opening and each of its argument
    /// fragments count as one each: the client counts them as tokens.
    pub content_deltas: u32,
    /// Reasoning deltas actually sent.
    pub reasoning_deltas: u32,
    /// HTTP status of the reply.
    pub status: u16,
    /// How the reply ended.
    pub outcome: Outcome,
}

/// One CORS preflight (`OPTIONS`), kept apart from model requests.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PreflightRecord {
    /// Full request target.
    pub path: String,
    /// When the preflight was read, ms on the mock clock.
    pub received_ms: f64,
    /// The `Access-Control-Request-Headers` value, if any.
    pub request_headers: Option<String>,
}

/// A snapshot of everything recorded since start or the last reset (`GET /ground-truth`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GroundTruth {
    /// When the snapshot was taken, ms on the mock clock.
    pub now_ms: f64,
    /// Model requests in arrival order.
    pub requests: Vec<RequestRecord>,
    /// CORS preflights in arrival order.
    pub preflights: Vec<PreflightRecord>,
    /// `preflights.len()`, for quick checks.
    pub preflight_count: usize,
}

#[derive(Debug, Default)]
struct Store {
    next_id: u64,
    requests: Vec<RequestRecord>,
    preflights: Vec<PreflightRecord>,
    /// Requests seen per canonical script name since the last reset (drives `bimodal`).
    script_counters: HashMap<String, u64>,
}

/// Shared, thread-safe recorder. Cheap to clone.
///
/// A reply's last time is recorded just after its last write returns, so a client can hold the
/// whole reply a moment before the record is final; [`Recorder::wait_for_request`] and
/// [`Recorder::settled_snapshot`] wait on a condition variable for that moment instead of sleeping.
#[derive(Clone, Debug)]
pub struct Recorder {
    clock: MockClock,
    store: Arc<(Mutex<Store>, Condvar)>,
}

impl RequestRecord {
    /// Whether the reply has ended (a `stall` reply never ends while its client waits).
    pub fn is_settled(&self) -> bool {
        self.outcome != Outcome::InProgress
    }

    fn is_stall(&self) -> bool {
        self.script
            .as_deref()
            .is_some_and(|script| script == "stall" || script.starts_with("stall@"))
    }
}

impl Recorder {
    /// An empty recorder on `clock`.
    pub fn new(clock: MockClock) -> Self {
        Recorder {
            clock,
            store: Arc::new((Mutex::new(Store::default()), Condvar::new())),
        }
    }

    /// The clock all records use.
    pub fn clock(&self) -> MockClock {
        self.clock
    }

    fn lock(&self) -> MutexGuard<'_, Store> {
        // A panic in another connection thread must not take the ground truth with it.
        self.store
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Waits up to `timeout` while any request record matches `pending` (records change
    /// through [`Self::update`], which wakes the waiters); returns the store as it is then.
    fn wait_while(
        &self,
        timeout: Duration,
        pending: impl Fn(&RequestRecord) -> bool,
    ) -> MutexGuard<'_, Store> {
        let store = self.lock();
        self.store
            .1
            .wait_timeout_while(store, timeout, |store| store.requests.iter().any(&pending))
            .map_or_else(|poisoned| poisoned.into_inner().0, |(store, _)| store)
    }

    /// A fresh request id; ids keep increasing across resets so they stay unique.
    pub fn next_id(&self) -> u64 {
        let mut store = self.lock();
        store.next_id += 1;
        store.next_id
    }

    /// The 0-based index of this request among those for `script` since the last reset.
    pub fn next_script_index(&self, script: &str) -> u64 {
        let mut store = self.lock();
        let counter = store.script_counters.entry(script.to_owned()).or_insert(0);
        let index = *counter;
        *counter += 1;
        index
    }

    /// Appends a request record.
    pub fn push_request(&self, record: RequestRecord) {
        self.lock().requests.push(record);
    }

    /// Appends a preflight record.
    pub fn push_preflight(&self, record: PreflightRecord) {
        self.lock().preflights.push(record);
    }

    /// Applies `change` to the record with `id`; does nothing if a reset removed it.
    pub fn update(&self, id: u64, change: impl FnOnce(&mut RequestRecord)) {
        let mut store = self.lock();
        if let Some(record) = store
            .requests
            .iter_mut()
            .rev()
            .find(|record| record.id == id)
        {
            change(record);
        }
        drop(store);
        self.store.1.notify_all();
    }

    /// Waits up to `timeout` until every record except `stall` replies has ended, then returns
    /// a snapshot (possibly still unsettled if the timeout passed).
    pub fn settled_snapshot(&self, timeout: Duration) -> GroundTruth {
        drop(self.wait_while(timeout, |record| !record.is_settled() && !record.is_stall()));
        self.snapshot()
    }

    /// Waits up to `timeout` until the record with `id` has ended; returns it as it is then
    /// (`None` if there is no such record).
    pub fn wait_for_request(&self, id: u64, timeout: Duration) -> Option<RequestRecord> {
        let store = self.wait_while(timeout, |record| record.id == id && !record.is_settled());
        store
            .requests
            .iter()
            .find(|record| record.id == id)
            .cloned()
    }

    /// Everything recorded so far.
    pub fn snapshot(&self) -> GroundTruth {
        let store = self.lock();
        GroundTruth {
            now_ms: self.clock.now_ms(),
            requests: store.requests.clone(),
            preflights: store.preflights.clone(),
            preflight_count: store.preflights.len(),
        }
    }

    /// Forgets all records and script counters (ids keep increasing).
    pub fn reset(&self) {
        let mut store = self.lock();
        store.requests.clear();
        store.preflights.clear();
        store.script_counters.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn record(id: u64) -> RequestRecord {
        RequestRecord {
            id,
            protocol: "openai".into(),
            path: "/v1/chat/completions".into(),
            model: Some("fixed".into()),
            script: Some("fixed".into()),
            auth: "authorization".into(),
            key_in_query: false,
            received_ms: 1.0,
            headers_ms: None,
            first_byte_ms: None,
            first_token_ms: None,
            first_reasoning_ms: None,
            end_ms: None,
            scripted_first_token_ms: Some(150.0),
            cold: None,
            output_tokens: None,
            cached_tokens: None,
            prompt_tokens: None,
            probe: None,
            probe_answered_wrong: None,
            content_deltas: 0,
            reasoning_deltas: 0,
            status: 200,
            outcome: Outcome::InProgress,
        }
    }

    #[test]
    fn clock_has_microsecond_resolution() {
        let clock = MockClock::start();
        let later = clock.started_at + Duration::from_micros(1_234_567);
        assert_eq!(clock.ms_at(later), 1_234.567);
        assert_eq!(clock.ms_at(clock.started_at), 0.0);
    }

    #[test]
    fn updates_reach_the_record_and_reset_clears() {
        let recorder = Recorder::new(MockClock::start());
        let id = recorder.next_id();
        recorder.push_request(record(id));
        recorder.update(id, |record| record.first_token_ms = Some(151.5));
        recorder.push_preflight(PreflightRecord {
            path: "/v1/messages".into(),
            received_ms: 0.5,
            request_headers: Some("x-api-key".into()),
        });
        let truth = recorder.snapshot();
        assert_eq!(truth.requests[0].first_token_ms, Some(151.5));
        assert_eq!(truth.preflight_count, 1);
        assert_eq!(recorder.next_script_index("bimodal"), 0);
        assert_eq!(recorder.next_script_index("bimodal"), 1);
        recorder.reset();
        assert!(recorder.snapshot().requests.is_empty());
        assert_eq!(recorder.next_script_index("bimodal"), 0);
        // Ids stay unique across a reset, and late updates to cleared records are dropped.
        assert!(recorder.next_id() > id);
        recorder.update(id, |record| record.status = 500);
        assert!(recorder.snapshot().requests.is_empty());
    }

    #[test]
    fn records_round_trip_through_json() {
        let original = record(4);
        let text = serde_json::to_string(&original).unwrap();
        assert!(text.contains("\"outcome\":\"in_progress\""));
        let back: RequestRecord = serde_json::from_str(&text).unwrap();
        assert_eq!(back, original);
    }
}
