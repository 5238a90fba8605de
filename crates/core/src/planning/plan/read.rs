//! Reading a plan: the document and the `#plan=` link, every member checked
//! once at the boundary with one message per bad field (a stranger may have
//! written it), unknown members named with the nearest known one.

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::{
    FidelityPlan, FieldError, Found, LinkProblem, PLAN_VERSION, Plan, PlanError, Problem, Protocol,
    Shape, Target,
};
use crate::base::document;
use crate::base::price::Price;

/// Declares, from one ordered list, a document's member names (for
/// "unknown member" suggestions and error order) and the function that reads
/// each plain member into its struct field of the same name: a member cannot
/// be listed without being read, or read without being listed. Members a
/// reader handles itself come first, as `special`.
macro_rules! members {
    (
        $(#[doc = $doc:expr])*
        $list:ident, $reader:ident, $ty:ty,
        special: [$($special:literal),* $(,)?],
        plain: [$($member:ident),* $(,)?] $(,)?
    ) => {
        $(#[doc = $doc])*
        const $list: &[&str] = &[$($special,)* $(stringify!($member)),*];

        /// Reads plain member `name` (at `path`) of `value` into `into`;
        /// `false` when `name` is not a plain member.
        #[cfg_attr(target_arch = "wasm32", inline)]
        fn $reader(reader: &mut FieldReader, path: &str, name: &str, value: &Value, into: &mut $ty) -> bool {
            match name {
                $(stringify!($member) => reader.read(path, value, &mut into.$member),)*
                _ => return false,
            }
            true
        }
    };
}

members! {
    /// Every top-level member of plan version 1, in document order.
    PLAN_FIELDS, read_plan_member, Plan,
    special: ["firsttoken_plan", "targets"],
    plain: [
        requests_per_target,
        warmup_per_target,
        spacing_s,
        jitter_s,
        spread_hours,
        timeout_s,
        prompt,
        nonce,
        max_tokens,
        temperature,
        reasoning_counts_as_first_token,
        peak_hours,
        peak_tz,
        ttft_budget_ms,
        fidelity,
        prompt_sizes,
        typical_prompt_tokens,
        prompt_cache_probe,
        idle_gaps_s,
        typical_gap_s,
        dedicated_usd_per_hour,
        until_decided,
        min_requests_per_target,
        objectives,
        equivalent_within_pct,
    ],
}

members! {
    /// Every member of a target, in document order.
    TARGET_FIELDS, read_target_member, Target,
    special: [],
    plain: [label, protocol, base_url, model, provider, price, openrouter_provider],
}

/// `#plan=` payloads: base64url, written without padding, read either way.
pub(super) const LINK_ENGINE: base64::engine::GeneralPurpose = base64::engine::GeneralPurpose::new(
    &base64::alphabet::URL_SAFE,
    base64::engine::GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent),
);

impl Plan {
    /// Reads a plan document, checking every field once, here at the boundary.
    ///
    /// Missing optional members take their [`Plan::default`] values; text
    /// fields are trimmed and base URLs lose trailing slashes. The result has
    /// passed [`Plan::validate`].
    ///
    /// # Errors
    /// [`PlanError::Json`] for malformed JSON (with line and column),
    /// [`PlanError::NotAPlan`] for a foreign document,
    /// [`PlanError::NewerVersion`] / [`PlanError::BadVersion`] for versions
    /// this page cannot read, and [`PlanError::Invalid`] with one message per
    /// bad field. Nothing is half-applied.
    ///
    /// # Examples
    ///
    /// A plan names its targets; every member left out takes its default:
    ///
    /// ```
    /// use firsttoken_core::planning::plan::{Plan, PlanError, Protocol};
    ///
    /// let plan = Plan::from_json(
    ///     r#"{
    ///         "firsttoken_plan": 1,
    ///         "targets": [{
    ///             "label": "mini",
    ///             "protocol": "openai",
    ///             "base_url": "https://api.openai.com/v1/",
    ///             "model": "gpt-4o-mini"
    ///         }],
    ///         "requests_per_target": 30
    ///     }"#,
    /// )?;
    /// assert_eq!(plan.targets[0].protocol, Protocol::OpenAi);
    /// // Trailing slashes go at the boundary.
    /// assert_eq!(plan.targets[0].base_url, "https://api.openai.com/v1");
    /// assert_eq!(plan.total_requests(), u64::from(30 + plan.warmup_per_target));
    ///
    /// // A bad plan names each bad field, and nothing of it is applied.
    /// let bad = Plan::from_json(r#"{"firsttoken_plan": 1, "requests_per_target": -3}"#);
    /// let Err(PlanError::Invalid(fields)) = bad else { panic!("{bad:?}") };
    /// assert!(fields.iter().any(|f| f.field == "requests_per_target"));
    /// # Ok::<(), PlanError>(())
    /// ```
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn from_json(text: &str) -> Result<Self, PlanError> {
        let value: Value = serde_json::from_str(text).map_err(|e| {
            // serde_json's message ends with the position, given separately here.
            let full = e.to_string();
            let position = format!(" at line {} column {}", e.line(), e.column());
            PlanError::Json {
                line: e.line().max(1),
                column: e.column().max(1),
                message: full.strip_suffix(&position).unwrap_or(&full).to_owned(),
            }
        })?;
        let Value::Object(members) = value else {
            return Err(PlanError::NotAPlan);
        };
        let version = members.get("firsttoken_plan").ok_or(PlanError::NotAPlan)?;
        match version.as_u64() {
            Some(v) if v == u64::from(PLAN_VERSION) => {}
            Some(v) if v > u64::from(PLAN_VERSION) => {
                return Err(PlanError::NewerVersion { found: v });
            }
            _ => {
                return Err(PlanError::BadVersion {
                    found: document::to_string(version),
                });
            }
        }

        let mut reader = FieldReader::default();
        let mut plan = Self::default();
        for (name, value) in &members {
            let field = name.as_str();
            match field {
                "firsttoken_plan" => {}
                "targets" => plan.targets = reader.targets(value),
                _ => {
                    if !read_plan_member(&mut reader, field, field, value, &mut plan) {
                        reader.unknown(field, PLAN_FIELDS);
                    }
                }
            }
        }
        plan.normalise();
        // A plan that leaves `jitter_s` out has the default, 1 s, which a
        // spacing of 2 s or less cannot hold: the default follows the
        // spacing then (the runner's flags do the same), rather than the
        // plan being refused for a member the person never wrote.
        if !members.contains_key("jitter_s")
            && let Some(fitted_s) = super::fitted_jitter(plan.jitter_s, plan.effective_spacing_s())
        {
            plan.jitter_s = fitted_s;
        }
        let mut errors = reader.errors;
        if let Err(range_errors) = plan.validate() {
            // A field that could not be read holds a stand-in value; a range
            // message about it would be about something the person never wrote.
            let mut unread: Vec<String> = errors.iter().map(|e| e.field.clone()).collect();
            // A base URL is checked against its protocol; without a readable
            // protocol that check would be against a guess.
            let protocol_unread: Vec<String> = unread
                .iter()
                .filter_map(|f| f.strip_suffix(".protocol").map(|t| format!("{t}.base_url")))
                .collect();
            unread.extend(protocol_unread);
            errors.extend(range_errors.into_iter().filter(|e| {
                !unread.iter().any(|u| {
                    e.field == *u
                        || e.field
                            .strip_prefix(u.as_str())
                            .is_some_and(|tail| tail.starts_with('.'))
                })
            }));
        }
        if errors.is_empty() {
            Ok(plan)
        } else {
            errors.sort_by_cached_key(|e| field_order(&e.field));
            Err(PlanError::Invalid(errors))
        }
    }

    /// The plan as a URL fragment payload: `plan=` followed by the compact
    /// JSON in base64url without padding. Put a `#` in front to make a link.
    /// Plans carry no keys, so neither does the link.
    ///
    /// # Examples
    ///
    /// ```
    /// use firsttoken_core::planning::plan::{Plan, PlanError};
    ///
    /// # let plan = Plan::from_json(r#"{"firsttoken_plan": 1, "targets": [{"label": "mini",
    /// #     "protocol": "openai", "base_url": "https://api.openai.com/v1", "model": "gpt-4o-mini"}]}"#)?;
    /// let fragment = plan.to_link_fragment();
    /// assert!(fragment.starts_with("plan="));
    /// let link = format!("https://example.org/#{fragment}");
    /// let (_, fragment) = link.split_once('#').unwrap_or_default();
    /// assert_eq!(Plan::from_link_fragment(fragment)?, plan);
    ///
    /// assert!(matches!(Plan::from_link_fragment("#lang=zh"), Err(PlanError::Link(_))));
    /// # Ok::<(), PlanError>(())
    /// ```
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn to_link_fragment(&self) -> String {
        let json = document::to_string(self);
        format!(
            "plan={}",
            base64::Engine::encode(&LINK_ENGINE, json.as_bytes())
        )
    }

    /// Reads a plan from a link fragment made by [`Plan::to_link_fragment`],
    /// with or without the leading `#`. Other `&`-separated parameters are
    /// ignored.
    ///
    /// # Errors
    /// [`PlanError::Link`] when there is no `plan=` parameter or its payload
    /// is not base64url UTF-8; otherwise whatever [`Plan::from_json`] says.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn from_link_fragment(fragment: &str) -> Result<Self, PlanError> {
        let fragment = fragment.trim();
        let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
        let payload = fragment
            .split('&')
            .find_map(|part| part.strip_prefix("plan="))
            .ok_or(PlanError::Link(LinkProblem::NoPlan))?;
        let bytes = base64::Engine::decode(&LINK_ENGINE, payload.trim())
            .map_err(|e| PlanError::Link(LinkProblem::NotBase64(e.to_string())))?;
        let text = String::from_utf8(bytes).map_err(|_| PlanError::Link(LinkProblem::NotUtf8))?;
        Self::from_json(&text)
    }
}

/// Reads members one by one, collecting one error per bad member.
#[derive(Default)]
struct FieldReader {
    errors: Vec<FieldError>,
}

impl FieldReader {
    /// Reads `value` into `slot` when it has the right shape; otherwise
    /// records an error and leaves the default in place.
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn read<T: DeserializeOwned + Expected>(&mut self, field: &str, value: &Value, slot: &mut T) {
        match T::deserialize(value) {
            Ok(v) => *slot = v,
            Err(_) => self.errors.push(FieldError::new(
                field,
                Problem::Expected {
                    shape: T::SHAPE,
                    found: describe(value),
                },
            )),
        }
    }

    #[cfg_attr(target_arch = "wasm32", inline)]
    fn unknown(&mut self, field: &str, known: &[&'static str]) {
        self.errors.push(unknown_field(field, field, known));
    }

    #[cfg_attr(target_arch = "wasm32", inline)]
    fn targets(&mut self, value: &Value) -> Vec<Target> {
        let Value::Array(items) = value else {
            self.errors.push(FieldError::new(
                "targets",
                Problem::Expected {
                    shape: Shape::TargetList,
                    found: describe(value),
                },
            ));
            return Vec::new();
        };
        items
            .iter()
            .enumerate()
            .map(|(i, item)| self.target(i, item))
            .collect()
    }

    /// Reads one target; a bad one still yields a stand-in so later targets
    /// keep their indexes in messages.
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn target(&mut self, i: usize, value: &Value) -> Target {
        let path = format!("targets[{i}]");
        let mut target = Target {
            label: String::new(),
            protocol: Protocol::OpenAi,
            base_url: String::new(),
            model: String::new(),
            provider: None,
            price: None,
            openrouter_provider: None,
        };
        let Value::Object(members) = value else {
            self.errors.push(FieldError::new(
                path,
                Problem::Expected {
                    shape: Shape::TargetObject,
                    found: describe(value),
                },
            ));
            return target;
        };
        for name in ["label", "protocol", "base_url", "model"] {
            if !members.contains_key(name) {
                self.errors
                    .push(FieldError::new(format!("{path}.{name}"), Problem::Missing));
            }
        }
        for (name, value) in members {
            let field = format!("{path}.{name}");
            if !read_target_member(self, &field, name, value, &mut target) {
                self.errors.push(unknown_field(&field, name, TARGET_FIELDS));
            }
        }
        target
    }
}

/// Sort key putting field errors in document-schema order:
/// top-level fields as listed in `PLAN_FIELDS`, targets by index then member.
#[cfg_attr(target_arch = "wasm32", inline)]
fn field_order(field: &str) -> (usize, usize, usize, String) {
    let (head, tail) = match field.find(['[', '.']) {
        Some(i) => field.split_at(i),
        None => (field, ""),
    };
    let top = PLAN_FIELDS
        .iter()
        .position(|f| *f == head)
        .unwrap_or(PLAN_FIELDS.len());
    let index = tail
        .strip_prefix('[')
        .and_then(|t| t.split(']').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let member = tail.rsplit('.').next().unwrap_or_default();
    let sub = if tail.contains('.') {
        TARGET_FIELDS
            .iter()
            .position(|f| *f == member)
            .unwrap_or(TARGET_FIELDS.len())
    } else {
        0
    };
    (top, index, sub, field.to_owned())
}

/// An unknown member: key-like names get a pointed refusal, typos a hint.
#[cfg_attr(target_arch = "wasm32", inline)]
fn unknown_field(path: &str, name: &str, known: &[&'static str]) -> FieldError {
    let lower = name.to_ascii_lowercase();
    if ["key", "token", "secret", "authorization", "password"]
        .iter()
        .any(|word| lower.contains(word))
    {
        return FieldError::new(path, Problem::KeyLike);
    }
    let nearest = known
        .iter()
        .map(|k| (edit_distance(&lower, k), *k))
        .min()
        .filter(|(d, _)| *d <= 3);
    FieldError::new(
        path,
        Problem::UnknownField {
            nearest: nearest.map(|(_, k)| k),
        },
    )
}

/// Levenshtein distance, for "did you mean" hints on short field names.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        previous = current;
    }
    previous[b.len()]
}

/// What a field's type accepts.
trait Expected {
    const SHAPE: Shape;
}
impl Expected for u32 {
    const SHAPE: Shape = Shape::WholeNumber;
}
impl Expected for f64 {
    const SHAPE: Shape = Shape::Number;
}
impl Expected for Option<f64> {
    const SHAPE: Shape = Shape::NumberOrNull;
}
impl Expected for String {
    const SHAPE: Shape = Shape::Text;
}
impl Expected for Option<String> {
    const SHAPE: Shape = Shape::TextOrNull;
}
impl Expected for Option<Price> {
    const SHAPE: Shape = Shape::Price;
}
impl Expected for Option<FidelityPlan> {
    const SHAPE: Shape = Shape::Fidelity;
}
impl Expected for Protocol {
    const SHAPE: Shape = Shape::Protocol;
}
impl Expected for Option<u32> {
    const SHAPE: Shape = Shape::WholeNumberOrNull;
}
impl Expected for Option<Vec<u32>> {
    const SHAPE: Shape = Shape::TokenSizes;
}
impl Expected for Option<Vec<f64>> {
    const SHAPE: Shape = Shape::Seconds;
}
impl Expected for Vec<String> {
    const SHAPE: Shape = Shape::Objectives;
}
impl Expected for bool {
    const SHAPE: Shape = Shape::Bool;
}
impl Expected for [u8; 2] {
    const SHAPE: Shape = Shape::PeakHours;
}

/// How a JSON value looks, for "expected X, found Y" messages.
#[cfg_attr(target_arch = "wasm32", inline)]
fn describe(value: &Value) -> Found {
    match value {
        Value::Null => Found::Literal("null".to_owned()),
        Value::Bool(b) => Found::Literal(b.to_string()),
        Value::Number(n) => Found::Literal(match n.as_f64() {
            Some(x) if !n.is_u64() && !n.is_i64() => document::Number(x).to_string(),
            _ => n.to_string(),
        }),
        Value::String(s) if s.chars().count() > 40 => Found::LongString,
        Value::String(s) => Found::Literal(format!("\"{s}\"")),
        Value::Array(_) => Found::List,
        Value::Object(_) => Found::Object,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::price::Price;

    /// The member names a fully filled document has, in its order.
    fn written_members<T: serde::Serialize>(value: &T) -> Vec<String> {
        let Value::Object(members) = serde_json::to_value(value).unwrap() else {
            panic!("not an object");
        };
        members.keys().cloned().collect()
    }

    #[test]
    fn the_member_lists_are_the_structs_members() {
        // Every member typed out, unlike the fixtures' builders: a new
        // member fails to compile here until it is filled, so it is written
        // and must be in `TARGET_FIELDS`.
        let target = Target {
            label: "a".into(),
            protocol: Protocol::OpenAi,
            base_url: "https://openrouter.ai/api/v1".into(),
            model: "m".into(),
            provider: Some("openrouter".into()),
            price: Some(Price {
                input_per_mtok: 1.0,
                output_per_mtok: 2.0,
                cached_input_per_mtok: None,
            }),
            openrouter_provider: Some("deepinfra".into()),
        };
        let plan = Plan {
            targets: vec![target.clone()],
            spread_hours: Some(1.0),
            peak_tz: Some("+08:00".into()),
            ttft_budget_ms: Some(800.0),
            fidelity: Some(crate::planning::plan::FidelityPlan::basic(None)),
            prompt_sizes: Some(vec![128, 8_192]),
            typical_prompt_tokens: Some(4_096),
            prompt_cache_probe: true,
            idle_gaps_s: Some(vec![10.0, 60.0]),
            typical_gap_s: Some(120.0),
            dedicated_usd_per_hour: Some(1.5),
            until_decided: true,
            min_requests_per_target: Some(20),
            objectives: vec!["p95>2s".into()],
            equivalent_within_pct: Some(10.0),
            ..Plan::default()
        };
        let mut plan_members = written_members(&plan);
        let mut listed: Vec<String> = PLAN_FIELDS.iter().map(|f| (*f).to_owned()).collect();
        plan_members.sort();
        listed.sort();
        assert_eq!(
            plan_members, listed,
            "a plan member is missing from PLAN_FIELDS"
        );
        let mut target_members = written_members(&target);
        let mut listed: Vec<String> = TARGET_FIELDS.iter().map(|f| (*f).to_owned()).collect();
        target_members.sort();
        listed.sort();
        assert_eq!(
            target_members, listed,
            "a target member is missing from TARGET_FIELDS"
        );
        // And every listed member reads back what was written.
        let read = Plan::from_json(&plan.to_json_pretty()).unwrap();
        assert_eq!(read, plan);
    }

    #[test]
    fn a_short_spacing_without_a_jitter_reads_with_the_jitter_fitted() {
        let target =
            r#"{"label": "a", "protocol": "demo", "base_url": "demo://steady", "model": "m"}"#;
        let plan = |members: &str| {
            Plan::from_json(&format!(
                r#"{{"firsttoken_plan": 1, {members} "targets": [{target}]}}"#
            ))
        };
        // Left out: the default follows a spacing too short for it.
        let short = plan(r#""spacing_s": 0.5,"#).unwrap();
        assert_eq!((short.spacing_s, short.jitter_s), (0.5, 0.1));
        // The default spacing keeps the default jitter, as before.
        assert_eq!(plan("").unwrap().jitter_s, 1.0);
        assert_eq!(plan(r#""spacing_s": 10,"#).unwrap().jitter_s, 1.0);
        // Written by the person: still refused when it does not fit.
        let written = plan(r#""spacing_s": 0.5, "jitter_s": 1,"#).unwrap_err();
        let PlanError::Invalid(errors) = written else {
            panic!("{written:?}")
        };
        assert_eq!(errors[0].field, "jitter_s");
    }

    #[test]
    fn the_protocol_message_names_every_protocol() {
        let names: Vec<String> = Protocol::ALL
            .iter()
            .map(|p| format!("\"{}\"", p.as_str()))
            .collect();
        assert_eq!(
            <Protocol as Expected>::SHAPE.text(crate::base::lang::Lang::En),
            format!("one of {}", names.join(", "))
        );
    }
}
