//! Decimal text to `f64`, correctly rounded (round half to even), in a few
//! hundred bytes of wasm.
//!
//! Why not `str::parse::<f64>`: the standard parser is fast because it
//! carries a 10 kB table of 128-bit powers of five, random bits that no
//! compression shrinks; it was 5 % of the page's gzipped weight. The page
//! parses a few thousand numbers at most (a plan, an imported results file),
//! so it can afford exact big-integer arithmetic instead: take a close
//! guess, then compare the decimal value exactly with the midpoints between
//! the guess and its neighbours and step until it lies between them.
//!
//! Exported timings must import bit for bit, so the tests check this parser
//! against the standard one on random doubles written every way Rust writes
//! them, on random digit strings, and on the classic hard cases.

use std::cmp::Ordering;

/// Significant digits kept exactly. Any decimal halfway between two
/// doubles has at most 767 significant digits, so a longer input only
/// needs to remember whether anything non-zero was cut off.
const MAX_DIGITS: usize = 800;

/// Exact powers of ten as `f64` (10^22 is the largest exactly representable).
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Parses `[+-]digits[.digits][(e|E)[+-]digits]`, also `.5` and `5.`; no
/// surrounding spaces, no `inf` or `NaN`. Too large a value gives an
/// infinity, too small a signed zero.
#[must_use]
pub fn parse_f64(text: &str) -> Option<f64> {
    let bytes = text.as_bytes();
    let mut i = 0;
    let negative = match bytes.first() {
        Some(b'-') => {
            i = 1;
            true
        }
        Some(b'+') => {
            i = 1;
            false
        }
        _ => false,
    };
    // Significant digits (no leading zeros) and the power of ten of the last one.
    let mut digits: Vec<u8> = Vec::new();
    let mut cut_nonzero = false;
    let mut exponent: i64 = 0;
    let mut seen_digit = false;
    let mut seen_point = false;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'0'..=b'9' => {
                seen_digit = true;
                let d = b - b'0';
                if seen_point {
                    exponent -= 1;
                }
                if digits.len() < MAX_DIGITS {
                    if !(digits.is_empty() && d == 0) {
                        digits.push(d);
                    }
                } else {
                    // A digit beyond those kept: the value moves by a power of ten.
                    exponent += 1;
                    cut_nonzero |= d != 0;
                }
            }
            b'.' if !seen_point => seen_point = true,
            _ => break,
        }
        i += 1;
    }
    if !seen_digit {
        return None;
    }
    if let Some(b'e' | b'E') = bytes.get(i) {
        i += 1;
        let exp_negative = match bytes.get(i) {
            Some(b'-') => {
                i += 1;
                true
            }
            Some(b'+') => {
                i += 1;
                false
            }
            _ => false,
        };
        let start = i;
        let mut e: i64 = 0;
        while let Some(&b @ b'0'..=b'9') = bytes.get(i) {
            // Saturate: anything this large is an infinity or a zero anyway.
            e = (e * 10 + i64::from(b - b'0')).min(1_000_000);
            i += 1;
        }
        if i == start {
            return None;
        }
        exponent += if exp_negative { -e } else { e };
    }
    if i != bytes.len() {
        return None;
    }
    while digits.last() == Some(&0) {
        digits.pop();
        exponent += 1;
    }
    let magnitude = magnitude(&digits, exponent, cut_nonzero);
    Some(if negative { -magnitude } else { magnitude })
}

/// The double nearest to `0.d1d2…dn × 10^(exponent + n)` (digits without
/// leading or trailing zeros), plus a hair when `cut_nonzero`.
fn magnitude(digits: &[u8], exponent: i64, cut_nonzero: bool) -> f64 {
    if digits.is_empty() {
        return 0.0;
    }
    // The value lies in [10^(scale-1), 10^scale).
    let scale = exponent + digits.len() as i64;
    if scale > 310 {
        return f64::INFINITY;
    }
    if scale < -324 {
        return 0.0;
    }
    let leading: u64 = digits
        .iter()
        .take(19)
        .fold(0, |acc, &d| acc * 10 + u64::from(d));
    #[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]
    let exponent_i32 = exponent as i32;
    // Exact operands, one rounding: the classic fast path.
    if digits.len() <= 15 && !cut_nonzero && exponent.abs() <= 22 {
        #[allow(clippy::cast_precision_loss)]
        let w = leading as f64;
        let p = POW10[exponent.unsigned_abs() as usize];
        return if exponent < 0 { w / p } else { w * p };
    }
    // A guess within a few units in the last place, then exact correction.
    #[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]
    let rest = exponent_i32 + (digits.len() as i32 - digits.len().min(19) as i32);
    #[allow(clippy::cast_precision_loss)]
    let guess = leading as f64 * 10f64.powi(rest / 2) * 10f64.powi(rest - rest / 2);
    let guess = if guess.is_finite() { guess } else { f64::MAX };
    correct(guess, &Big::from_digits(digits), exponent_i32, cut_nonzero)
}

/// Steps from `z` to the double nearest the exact value `d × 10^e` (plus a
/// hair when `sticky`).
fn correct(mut z: f64, d: &Big, e: i32, sticky: bool) -> f64 {
    loop {
        let (m, k) = decompose(z);
        // Upper midpoint (2m + 1) · 2^(k−1).
        match compare(d, e, sticky, 2 * m + 1, k - 1) {
            Ordering::Greater => {
                if z == f64::MAX {
                    return f64::INFINITY;
                }
                z = f64::from_bits(z.to_bits() + 1);
                continue;
            }
            Ordering::Equal => {
                return if m % 2 == 0 {
                    z
                } else {
                    f64::from_bits(z.to_bits() + 1)
                };
            }
            Ordering::Less => {}
        }
        if z == 0.0 {
            return z;
        }
        // Lower midpoint: half-way to the previous double, whose spacing is
        // half as wide when z is a power of two above the subnormals.
        let (numerator, shift) = if m == 1 << 52 && k > -1074 {
            (4 * m - 1, k - 2)
        } else {
            (2 * m - 1, k - 1)
        };
        match compare(d, e, sticky, numerator, shift) {
            Ordering::Less => z = f64::from_bits(z.to_bits() - 1),
            Ordering::Equal => {
                return if m % 2 == 0 {
                    z
                } else {
                    f64::from_bits(z.to_bits() - 1)
                };
            }
            Ordering::Greater => return z,
        }
    }
}

/// `z = m · 2^k` with `m` the integer significand.
fn decompose(z: f64) -> (u64, i32) {
    let bits = z.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1 << 52) - 1);
    if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), biased - 1075)
    }
}

/// Compares `d · 10^e` (+ a hair when `sticky`) with `n · 2^k`, exactly.
fn compare(d: &Big, e: i32, sticky: bool, n: u64, k: i32) -> Ordering {
    let mut left = d.clone();
    let mut right = Big::from_u64(n);
    if e >= 0 {
        left.mul_pow10(e.unsigned_abs());
    } else {
        right.mul_pow10(e.unsigned_abs());
    }
    if k >= 0 {
        right.shl(k.unsigned_abs());
    } else {
        left.shl(k.unsigned_abs());
    }
    match left.cmp(&right) {
        Ordering::Equal if sticky => Ordering::Greater,
        order => order,
    }
}

/// A non-negative big integer, little-endian 32-bit limbs, no leading zero limbs.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Big(Vec<u32>);

impl Big {
    fn from_u64(n: u64) -> Self {
        let mut big = Self(vec![n as u32, (n >> 32) as u32]);
        big.trim();
        big
    }

    fn from_digits(digits: &[u8]) -> Self {
        let mut big = Self(Vec::new());
        for chunk in digits.chunks(9) {
            let value = chunk.iter().fold(0u32, |acc, &d| acc * 10 + u32::from(d));
            big.mul_add(10u32.pow(chunk.len() as u32), value);
        }
        big
    }

    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    /// `self = self · factor + add`.
    fn mul_add(&mut self, factor: u32, add: u32) {
        let mut carry = u64::from(add);
        for limb in &mut self.0 {
            let product = u64::from(*limb) * u64::from(factor) + carry;
            *limb = product as u32;
            carry = product >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
        self.trim();
    }

    fn mul_pow10(&mut self, mut power: u32) {
        while power >= 9 {
            self.mul_add(1_000_000_000, 0);
            power -= 9;
        }
        if power > 0 {
            self.mul_add(10u32.pow(power), 0);
        }
    }

    fn shl(&mut self, bits: u32) {
        if self.0.is_empty() {
            return;
        }
        let (limbs, bits) = ((bits / 32) as usize, bits % 32);
        if bits > 0 {
            let mut carry = 0;
            for limb in &mut self.0 {
                let next = *limb >> (32 - bits);
                *limb = (*limb << bits) | carry;
                carry = next;
            }
            if carry > 0 {
                self.0.push(carry);
            }
        }
        self.0.splice(0..0, std::iter::repeat_n(0, limbs));
    }
}

impl PartialOrd for Big {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Big {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0
            .len()
            .cmp(&other.0.len())
            .then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn same(text: &str) {
        let expected: f64 = text.parse().unwrap();
        let got = parse_f64(text).unwrap_or_else(|| panic!("{text:?} refused"));
        assert_eq!(
            got.to_bits(),
            expected.to_bits(),
            "{text}: got {got:e}, want {expected:e}"
        );
    }

    #[test]
    fn hard_cases_round_like_the_standard_parser() {
        for text in [
            "0",
            "-0",
            "0.0",
            "1",
            "-1",
            "0.1",
            "0.30000000000000004",
            "350.0",
            "1e21",
            "1e22",
            "1e23",
            "9007199254740993",
            "9007199254740992.5",
            "2.2250738585072011e-308",
            "2.2250738585072012e-308",
            "2.2250738585072014e-308",
            "4.9406564584124654e-324",
            "2.4703282292062327e-324",
            "2.4703282292062328e-324",
            "1.7976931348623157e308",
            "1.7976931348623158e308",
            "1.7976931348623159e308",
            "5e-324",
            "1e-400",
            "1e400",
            "0.1000000000000000055511151231257827021181583404541015625",
            "0.1000000000000000055511151231257827021181583404541015624",
            "0.1000000000000000055511151231257827021181583404541015626",
            "123456789012345678901234567890",
            "1733000000000.5",
            "412.30000000000007",
            "7.038531e-26",
            "8.98846567431158e307",
            "1.448997445238699",
            ".5",
            "5.",
            "+3",
            "1E5",
            "1e-5",
            "000000000000000000000000000001.5",
        ] {
            same(text);
        }
        // Halfway between 1 and the next double, then a long tail of zeros and a 1.
        let tie = format!(
            "1.00000000000000011102230246251565404236316680908203125{}",
            "0".repeat(900)
        );
        same(&tie);
        same(&(tie.clone() + "1"));
    }

    #[test]
    fn refuses_what_is_not_a_decimal() {
        for text in [
            "", "-", "+", ".", "e5", "1e", "1e+", "1.2.3", "inf", "NaN", " 1", "1 ", "1,5", "--1",
            "0x10",
        ] {
            assert_eq!(parse_f64(text), None, "{text:?}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        /// Every double, written as Rust writes it (shortest, exponent,
        /// and 17 significant digits), reads back to the same bits.
        #[test]
        fn doubles_round_trip(bits in any::<u64>()) {
            let x = f64::from_bits(bits);
            prop_assume!(x.is_finite());
            for text in [x.to_string(), format!("{x:e}"), format!("{x:.16e}"), format!("{x:.3e}")] {
                same(&text);
            }
        }

        /// Random digit strings and exponents round like the standard parser.
        #[test]
        fn digit_strings_round_like_the_standard_parser(
            int in "[0-9]{0,30}",
            frac in "[0-9]{0,30}",
            exp in -360i32..340,
        ) {
            prop_assume!(!int.is_empty() || !frac.is_empty());
            same(&format!("{int}.{frac}e{exp}"));
        }

        /// Values of the sizes timings have, with up to 17 digits.
        #[test]
        fn timings_round_trip(ms in 0.0f64..1e13) {
            same(&ms.to_string());
        }
    }
}
