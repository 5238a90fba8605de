//! Comparisons in words: whether one target is better than another
//! ([`crate::statistics::bootstrap::Distinction`]) and how much more consistent
//! ([`crate::judgement::compare::Consistency`]). The methods stay on their types (an
//! inherent impl may live in any module of its crate).

use crate::base::lang::Lang;
use crate::judgement::compare::Consistency;
use crate::statistics::bootstrap::Distinction;

impl Distinction {
    /// A short sentence naming the two targets.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn text(self, a: &str, b: &str, lang: Lang) -> String {
        match (self, lang) {
            (Self::ABetter, Lang::En) => format!("{a} is better than {b}"),
            (Self::BBetter, Lang::En) => format!("{b} is better than {a}"),
            (Self::NotDistinguishable, Lang::En) => {
                format!("{a} and {b} are not distinguishable with this many samples")
            }
            (Self::ABetter, Lang::ZhCn) => format!("{a} 优于 {b}"),
            (Self::BBetter, Lang::ZhCn) => format!("{b} 优于 {a}"),
            (Self::NotDistinguishable, Lang::ZhCn) => format!("以当前样本量无法区分 {a} 与 {b}"),
        }
    }
}

impl Consistency {
    /// "A and B: CV 21 % and 24 %, not distinguishable with these
    /// requests": what to say instead of [`Consistency::text`] when the two
    /// CVs' intervals overlap, so that no ratio is stated that the
    /// intervals cannot tell from 1×.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn indistinct_text(most: (&str, f64), least: (&str, f64), lang: Lang) -> String {
        let ((most, most_cv), (least, least_cv)) = (most, least);
        match lang {
            Lang::En => format!(
                "{most} and {least}: CV {most_cv:.0} % and {least_cv:.0} %, not distinguishable with these requests"
            ),
            Lang::ZhCn => format!(
                "{most} 与 {least} 的 CV 分别为 {most_cv:.0} % 和 {least_cv:.0} %，以这些请求无法区分"
            ),
        }
    }

    /// "A is 34× more consistent than B".
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn text(&self, most: &str, least: &str, lang: Lang) -> String {
        let ratio = self.ratio_text();
        match lang {
            Lang::En => format!("{most} is {ratio} more consistent than {least}"),
            Lang::ZhCn => format!("{most} 的稳定性是 {least} 的 {ratio}"),
        }
    }
}
