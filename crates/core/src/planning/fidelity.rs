//! The fidelity check: does a target serve the same model as the
//! reference, judged by rules and not by a model?
//!
//! Providers choose precision, chat templates and context limits without
//! saying so. A short suite of probes whose answers a rule can check
//! ([`suite`]), sent on the latency run's own schedule, shows what those
//! choices do to answers and tool calls. The verifiers ([`verify`]) read
//! the one part of a reply that has a single right value; the scoring
//! ([`fidelity_score`](crate::judgement::fidelity_score), in the judgement
//! layer) compares each target with the reference target's own spread. It
//! can show that answers differ; it cannot prove why.

pub mod reply;
pub mod suite;
pub mod verify;
