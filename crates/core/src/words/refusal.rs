//! Why a document or a link was refused, in each language: a plan that is
//! not JSON, not a plan or of another version; a damaged `#plan=` link; a
//! results file that is too large, foreign, of another version or holds a
//! bad member; runs that cannot be merged.
//!
//! The readers keep what went wrong as data ([`crate::planning::plan::PlanError`],
//! [`crate::documents::results::ImportError`], [`crate::documents::results::MergeError`])
//! and ask here for the words, so the page in Chinese says it in Chinese and
//! the runner says in English exactly what it always said. A library's own
//! detail (the JSON reader's message, base64's) and the document's member
//! names are passed through as they are: they are what a person searches
//! the file for.
//!
//! A leaf like [`crate::words::plan_problem`]: versions and limits arrive as data,
//! so the readers can name it without an import circle.

use crate::base::lang::Lang;

/// What is wrong with a `#plan=` link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkProblem {
    /// No `plan=` parameter in the fragment.
    NoPlan,
    /// The payload is not base64url; the decoder's words.
    NotBase64(String),
    /// The payload decodes, but not to UTF-8 text.
    NotUtf8,
}

impl LinkProblem {
    /// The problem in `lang`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn text(&self, lang: Lang) -> String {
        match (lang, self) {
            (Lang::En, Self::NoPlan) => "the link has no plan in it (expected #plan=…)".to_owned(),
            (Lang::ZhCn, Self::NoPlan) => "链接里没有计划（应为 #plan=…）".to_owned(),
            (Lang::En, Self::NotBase64(detail)) => format!(
                "the plan link is damaged: its payload is not valid base64url ({detail}); \
                 copy the whole link again"
            ),
            (Lang::ZhCn, Self::NotBase64(detail)) => {
                format!(
                    "计划链接已损坏：其内容不是有效的 base64url（{detail}）；请重新复制完整的链接"
                )
            }
            (Lang::En, Self::NotUtf8) => {
                "the plan link is damaged: its payload is not UTF-8 text; copy the whole link again"
                    .to_owned()
            }
            (Lang::ZhCn, Self::NotUtf8) => {
                "计划链接已损坏：其内容不是 UTF-8 文本；请重新复制完整的链接".to_owned()
            }
        }
    }
}

/// A plan that is not JSON: where the reader stopped, and its words.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn plan_not_json(lang: Lang, line: usize, column: usize, message: &str) -> String {
    match lang {
        Lang::En => format!("not valid JSON at line {line}, column {column}: {message}"),
        Lang::ZhCn => format!("不是有效的 JSON（第 {line} 行第 {column} 列）：{message}"),
    }
}

/// JSON, but not a plan.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn plan_not_a_plan(lang: Lang) -> String {
    match lang {
        Lang::En => "this is not a FirstToken plan (it has no \"firsttoken_plan\" member); \
                     was it a results file?"
            .to_owned(),
        Lang::ZhCn => {
            "这不是 FirstToken 计划（它没有“firsttoken_plan”成员）；是不是结果文件？".to_owned()
        }
    }
}

/// A plan of a later version than this build reads (`understood`).
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn plan_newer(lang: Lang, found: u64, understood: u32) -> String {
    match lang {
        Lang::En => format!(
            "plan version {found} is newer than this page understands ({understood}); \
             open it with a newer FirstToken"
        ),
        Lang::ZhCn => format!(
            "计划版本 {found} 比本页面能读的版本（{understood}）更新；请用更新的 FirstToken 打开"
        ),
    }
}

/// A plan whose `firsttoken_plan` is no version number (`found`, as JSON).
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn plan_bad_version(lang: Lang, found: &str, understood: u32) -> String {
    match lang {
        Lang::En => format!(
            "\"firsttoken_plan\" is {found}, not a plan version this page knows \
             (it understands {understood})"
        ),
        Lang::ZhCn => format!(
            "“firsttoken_plan”为 {found}，不是本页面认识的计划版本（本页面读取版本 {understood}）"
        ),
    }
}

/// A plan with bad fields, each already said in `lang`, on one line.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn plan_bad_fields(lang: Lang, fields: &[String]) -> String {
    let n = fields.len();
    match lang {
        Lang::En => format!(
            "the plan has {n} bad field{}: {}",
            if n == 1 { "" } else { "s" },
            fields.join("; ")
        ),
        Lang::ZhCn => format!("计划有 {n} 个字段有误：{}", fields.join("；")),
    }
}

/// A results file refused before it was parsed, for its size.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn results_too_large(lang: Lang, mib: usize, max_mib: usize) -> String {
    match lang {
        Lang::En => format!(
            "the file is {mib} MiB; results files of up to {max_mib} MiB are read (about 250 000 \
             samples): split the run, or merge fewer files at once"
        ),
        Lang::ZhCn => format!(
            "文件大小为 {mib} MiB；结果文件最多读取 {max_mib} MiB（约 250 000 个样本）：\
             请拆分这次运行，或一次合并更少的文件"
        ),
    }
}

/// A results file that is not JSON; the JSON reader's words.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn results_not_json(lang: Lang, reason: &str) -> String {
    match lang {
        Lang::En => format!("the file is not valid json: {reason}"),
        Lang::ZhCn => format!("文件不是有效的 JSON：{reason}"),
    }
}

/// JSON, but not a results file.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn results_foreign(lang: Lang) -> String {
    match lang {
        Lang::En => "this is not a firsttoken results file: it has no firsttoken_results field \
                     (a plan file opens with Load plan on the Setup screen, or runs with \
                     firsttoken run)"
            .to_owned(),
        Lang::ZhCn => "这不是 FirstToken 结果文件：它没有 firsttoken_results 字段\
                       （计划文件请在「设置」页用「载入计划」打开，或用 firsttoken run 运行）"
            .to_owned(),
    }
}

/// A results file of a version this build does not read (`found`, as JSON).
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn results_version(lang: Lang, found: &str, supported: u32) -> String {
    match lang {
        Lang::En => format!(
            "firsttoken_results version {found} is not supported: this page reads version {supported}"
        ),
        Lang::ZhCn => {
            format!("不支持 firsttoken_results 版本 {found}：本页面读取版本 {supported}")
        }
    }
}

/// A results file of the right version with a member that does not fit;
/// `reason` names the member and what the reader found.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn results_shape(lang: Lang, version: u32, reason: &str) -> String {
    match lang {
        Lang::En => format!("the results file does not match version {version}: {reason}"),
        Lang::ZhCn => format!("结果文件与第 {version} 版的格式不符：{reason}"),
    }
}

/// A sample's timing that is negative or not a finite number.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn results_bad_number(lang: Lang, sample: usize, field: &str, value: f64) -> String {
    match (lang, value.is_finite()) {
        (Lang::En, true) => format!("samples[{sample}].{field} is negative ({value})"),
        (Lang::En, false) => format!("samples[{sample}].{field} is not a finite number ({value})"),
        (Lang::ZhCn, true) => format!("samples[{sample}].{field} 为负数（{value}）"),
        (Lang::ZhCn, false) => format!("samples[{sample}].{field} 不是有限的数（{value}）"),
    }
}

/// A sample or summary line naming a target the plan does not have.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn results_target_out_of_range(
    lang: Lang,
    field: &str,
    target: u32,
    targets: usize,
) -> String {
    match lang {
        Lang::En => format!("{field} is {target} but the plan has only {targets} targets"),
        Lang::ZhCn => format!("{field} 为 {target}，但计划只有 {targets} 个目标"),
    }
}

/// Nothing to merge.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn merge_empty(lang: Lang) -> String {
    match lang {
        Lang::En => "no results to merge: import at least one results file".to_owned(),
        Lang::ZhCn => "没有可合并的结果：请至少导入一个结果文件".to_owned(),
    }
}

/// Runs whose plans measure different things under the same name (`field`).
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn merge_different_measure(lang: Lang, field: &str) -> String {
    match lang {
        Lang::En => format!(
            "cannot merge: the plans differ in {field}, so their ttft_ms measure different things"
        ),
        Lang::ZhCn => {
            format!("无法合并：这些计划的 {field} 不同，因此它们的 ttft_ms 测的不是同一件事")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::lang::assert_no_english_left;

    /// Every refusal in `lang`, with the details filled in.
    fn all(lang: Lang) -> Vec<String> {
        vec![
            LinkProblem::NoPlan.text(lang),
            LinkProblem::NotBase64("Invalid byte 64, offset 0.".to_owned()).text(lang),
            LinkProblem::NotUtf8.text(lang),
            plan_not_json(lang, 3, 7, "expected `,` or `}`"),
            plan_not_a_plan(lang),
            plan_newer(lang, 2, 1),
            plan_bad_version(lang, "\"one\"", 1),
            plan_bad_fields(lang, &["甲".to_owned(), "乙".to_owned()]),
            results_too_large(lang, 129, 128),
            results_not_json(lang, "EOF while parsing a value at line 1 column 1"),
            results_foreign(lang),
            results_version(lang, "2", 1),
            results_shape(lang, 1, "samples[3].ttft_ms: invalid type"),
            results_bad_number(lang, 3, "ttft_ms", -1.0),
            results_bad_number(lang, 3, "ttft_ms", f64::INFINITY),
            results_target_out_of_range(lang, "samples[3].target", 9, 2),
            merge_empty(lang),
            merge_different_measure(lang, "reasoning_counts_as_first_token"),
        ]
    }

    #[test]
    fn the_chinese_refusals_hold_no_english_words_of_their_own() {
        // What may stay in Latin letters: the detail passed through, the
        // document's member names, the product's name and formats' names.
        let kept = [
            "reasoning_counts_as_first_token",
            "firsttoken_results",
            "firsttoken_plan",
            "samples[3].ttft_ms: invalid type",
            "samples[3].target",
            "samples[3].ttft_ms",
            "Invalid byte 64, offset 0.",
            "EOF while parsing a value at line 1 column 1",
            "expected `,` or `}`",
            "FirstToken",
            "firsttoken run",
            "\"one\"",
            "base64url",
            "ttft_ms",
            "#plan=",
            "UTF-8",
            "JSON",
            "MiB",
            "inf",
        ];
        for text in all(Lang::ZhCn) {
            assert_no_english_left(&text, &kept);
        }
    }

    /// A plan given where results go says where a plan opens: the page's
    /// Setup screen has Load plan; there is no "plan page".
    #[test]
    fn a_plan_among_results_is_pointed_to_where_plans_open() {
        let page = Lang::texts;
        for lang in [Lang::En, Lang::ZhCn] {
            let text = results_foreign(lang);
            assert!(text.contains(page(lang).load_plan), "{text}");
            assert!(text.contains(page(lang).nav_setup), "{text}");
            assert!(text.contains("firsttoken run"), "{text}");
            assert!(
                !text.contains("plan page") && !text.contains("计划页"),
                "{text}"
            );
        }
    }

    #[test]
    fn each_language_keeps_the_details() {
        for lang in [Lang::En, Lang::ZhCn] {
            let text = plan_not_json(lang, 3, 7, "expected value");
            assert!(text.contains('3') && text.contains('7') && text.contains("expected value"));
            assert!(plan_newer(lang, 2, 1).contains('2'));
            assert!(results_shape(lang, 1, "samples[3].ttft_ms").contains("samples[3].ttft_ms"));
            assert!(
                results_target_out_of_range(lang, "summary[0].target", 9, 2)
                    .contains("summary[0].target")
            );
            let two = plan_bad_fields(lang, &["first".to_owned(), "second".to_owned()]);
            assert!(two.contains("first") && two.contains("second") && two.contains('2'));
        }
    }

    #[test]
    fn the_english_refusals_read_as_before() {
        assert_eq!(
            plan_bad_fields(Lang::En, &["x".to_owned()]),
            "the plan has 1 bad field: x"
        );
        assert_eq!(
            plan_bad_fields(Lang::En, &["x".to_owned(), "y".to_owned()]),
            "the plan has 2 bad fields: x; y"
        );
        assert_eq!(
            results_bad_number(Lang::En, 3, "ttft_ms", f64::NAN),
            "samples[3].ttft_ms is not a finite number (NaN)"
        );
        assert_eq!(
            LinkProblem::NoPlan.text(Lang::En),
            "the link has no plan in it (expected #plan=…)"
        );
    }
}
