//! What the scripts, the fidelity answers and the protocols all use and
//! which itself uses nothing of the mock: a leaf, so that none of those
//! modules has to import another for it (no import circle between them).

/// Prompt size reported in usage blocks when the mock does not count the
/// prompt (a fidelity or prefill script counts it).
pub(crate) const PROMPT_TOKENS: u32 = 12;

/// SplitMix64 (Steele, Lea, Flood 2014): a tiny, well-mixed hash of a 64-bit counter.
pub(crate) fn splitmix64(value: u64) -> u64 {
    let mut z = value.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
