//! The page's notices: one line that says what went wrong with a file, the
//! browser's storage or a link, and what to do next. Made here, in both
//! languages, so no view puts a sentence together on its own; the detail
//! (`error`) is the browser's or the reader's own words, passed through.

use crate::base::lang::Lang;

/// What the page was doing with the browser's storage when it failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StorageStep {
    /// Opening the database that keeps runs across reloads.
    OpeningDatabase,
    /// Saving one measured sample of a run.
    SavingSample,
    /// Saving the run's record (its plan and status).
    SavingRun,
    /// Keeping the keys on this device, as the person asked.
    RememberingKeys,
}

impl StorageStep {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn words(self, lang: Lang) -> &'static str {
        match (lang, self) {
            (Lang::En, Self::OpeningDatabase) => "opening the browser's database",
            (Lang::En, Self::SavingSample) => "saving a sample",
            (Lang::En, Self::SavingRun) => "saving the run",
            (Lang::En, Self::RememberingKeys) => "remembering keys",
            (Lang::ZhCn, Self::OpeningDatabase) => "打开浏览器数据库时",
            (Lang::ZhCn, Self::SavingSample) => "保存样本时",
            (Lang::ZhCn, Self::SavingRun) => "保存运行记录时",
            (Lang::ZhCn, Self::RememberingKeys) => "记住密钥时",
        }
    }
}

/// Browser storage failed: from now on the run lives in memory only.
///
/// "This browser is no longer keeping this run: … (saving a sample: quota)"
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn storage_failed(lang: Lang, step: StorageStep, error: &str) -> String {
    let step = step.words(lang);
    match lang {
        Lang::En => format!(
            "This browser is no longer keeping this run: a reload or a crash would lose what is \
             measured from now on. The run goes on in memory; export the results when it ends \
             (a private window keeps nothing) ({step}: {error})"
        ),
        Lang::ZhCn => format!(
            "浏览器已无法保存这次运行：从现在起测得的数据在重新加载或崩溃时会丢失。运行会在内存中继续；\
             结束后请导出结果（隐私窗口不会保存任何内容）（{step}：{error}）"
        ),
    }
}

/// A chosen file could not be read at all: "runs.json: the file could not
/// be read (NotReadableError)".
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn file_unreadable(lang: Lang, file: &str, error: &str) -> String {
    match lang {
        Lang::En => format!("{file}: the file could not be read ({error})"),
        Lang::ZhCn => format!("{file}：无法读取该文件（{error}）"),
    }
}

/// A chosen file was read but refused (not a plan, not a results file):
/// the file's name, then the reader's reason.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn file_refused(lang: Lang, file: &str, error: &str) -> String {
    match lang {
        Lang::En => format!("{file}: {error}"),
        Lang::ZhCn => format!("{file}：{error}"),
    }
}

/// A run stopped because its loop and its schedule disagreed, which is a
/// bug (the runner prints the session's own words; the page, for its
/// weight, says only that).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn run_stopped_by_error(lang: Lang) -> &'static str {
    match lang {
        Lang::En => {
            "The run stopped: its loop and its schedule disagreed. The samples so far are kept; \
             this is a bug, please report it."
        }
        Lang::ZhCn => "运行已停止：运行循环与排程不一致。已有样本都已保留；这是一个缺陷，请报告。",
    }
}

/// A `#plan=` link that was not used, and why.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn plan_link_unused(lang: Lang, error: &str) -> String {
    match lang {
        Lang::En => format!("The plan link was not used: {error}"),
        Lang::ZhCn => format!("未使用该计划链接：{error}"),
    }
}

/// A provider answered the model list with an HTTP error: its status and
/// its own message ("HTTP 401 from provider: invalid api key"). The runner
/// keeps the English in a failed sample's message.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn provider_http_error(lang: Lang, status: u16, message: &str) -> String {
    match lang {
        Lang::En => format!("HTTP {status} from provider: {message}"),
        Lang::ZhCn => format!("服务商返回 HTTP {status}：{message}"),
    }
}

/// The model list could not be fetched at all (the browser's reason: no
/// network, or the provider's CORS).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn models_unlisted(lang: Lang, error: &str) -> String {
    match lang {
        Lang::En => format!("The model list could not be fetched: {error}"),
        Lang::ZhCn => format!("无法获取模型列表：{error}"),
    }
}

/// A file the page offered could not be saved.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn download_failed(lang: Lang, file: &str, error: &str) -> String {
    match lang {
        Lang::En => format!("{file} could not be saved ({error})"),
        Lang::ZhCn => format!("无法保存 {file}（{error}）"),
    }
}

/// Start refused because a target that needs a key has none: the same
/// rule the runner refuses such a plan by (`key_rules::needed_keys`).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn keys_missing_to_start(lang: Lang, missing: &[String]) -> String {
    match lang {
        Lang::En => format!(
            "Enter the API key for {} before starting: a key goes only to its own host, and \
             without one every request would be refused.",
            missing.join(", ")
        ),
        Lang::ZhCn => format!(
            "开始前请输入 {} 的 API 密钥：密钥只会发送到它自己的主机，没有密钥，每个请求都会被拒绝。",
            missing.join("、")
        ),
    }
}

/// "Test connection" pressed with the key field empty, for a target that
/// needs one: nothing is sent, and this is said beside the field.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn key_needed_to_test(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "Enter the API key first: nothing was sent.",
        Lang::ZhCn => "请先输入 API 密钥：尚未发送任何请求。",
    }
}

/// Resuming a stored run needs keys this page does not hold: which, and
/// what to do once they are entered.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn keys_needed(lang: Lang, missing: &[String]) -> String {
    match lang {
        Lang::En => format!(
            "Enter the key for {}; then resume the run from History.",
            missing.join(", ")
        ),
        Lang::ZhCn => format!(
            "请输入密钥：{}；然后在“历史”中继续这次运行。",
            missing.join("、")
        ),
    }
}

/// A part of the page (the run, the results, the dashboard) is a file of
/// its own, fetched when it is first opened; this says that fetch failed
/// (offline, a blocked request, a deploy that replaced the page) and that
/// nothing measured is lost. Shown where the part would be, beside
/// [`retry_part`]'s button.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn part_unloaded(lang: Lang) -> &'static str {
    match lang {
        Lang::En => {
            "This part of the page could not be loaded (offline, or the request was blocked). \
             Nothing measured is lost: a run in progress goes on. Check the connection and try again."
        }
        Lang::ZhCn => {
            "页面的这一部分未能加载（网络已断开，或请求被拦截）。已测得的数据不会丢失，\
             进行中的运行会继续。请检查网络后重试。"
        }
    }
}

/// The button that fetches a part of the page again after [`part_unloaded`].
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn retry_part(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "Try again",
        Lang::ZhCn => "重试",
    }
}

/// What stands where a part of the page will be, while it is fetched.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn part_loading(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "Loading…",
        Lang::ZhCn => "加载中…",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::lang::assert_no_english_left;

    const LANGS: [Lang; 2] = [Lang::En, Lang::ZhCn];

    #[test]
    fn every_notice_keeps_its_detail_in_both_languages() {
        for lang in LANGS {
            for step in [
                StorageStep::OpeningDatabase,
                StorageStep::SavingSample,
                StorageStep::SavingRun,
                StorageStep::RememberingKeys,
            ] {
                let text = storage_failed(lang, step, "QuotaExceededError");
                assert!(text.contains("QuotaExceededError"), "{text}");
                assert!(text.contains(step.words(lang)), "{text}");
            }
            for text in [
                file_unreadable(lang, "plan.json", "NotReadableError"),
                file_refused(lang, "plan.json", "NotReadableError"),
            ] {
                assert!(text.starts_with("plan.json"), "{text}");
                assert!(text.contains("NotReadableError"), "{text}");
            }
            let link = plan_link_unused(lang, "not base64");
            assert!(link.ends_with("not base64"), "{link}");
            let http = provider_http_error(lang, 401, "invalid api key");
            assert!(
                http.contains("401") && http.ends_with("invalid api key"),
                "{http}"
            );
            assert!(models_unlisted(lang, "TypeError").contains("TypeError"));
            let saved = download_failed(lang, "firsttoken-plan.json", "SecurityError");
            assert!(saved.contains("firsttoken-plan.json") && saved.contains("SecurityError"));
            let keys = keys_needed(lang, &["Groq".to_owned(), "Together".to_owned()]);
            assert!(keys.contains("Groq") && keys.contains("Together"), "{keys}");
        }
    }

    #[test]
    fn the_chinese_notices_hold_no_english_words_of_their_own() {
        let texts = [
            storage_failed(Lang::ZhCn, StorageStep::SavingRun, ""),
            storage_failed(Lang::ZhCn, StorageStep::OpeningDatabase, ""),
            storage_failed(Lang::ZhCn, StorageStep::SavingSample, ""),
            storage_failed(Lang::ZhCn, StorageStep::RememberingKeys, ""),
            file_unreadable(Lang::ZhCn, "", ""),
            plan_link_unused(Lang::ZhCn, ""),
            keys_needed(Lang::ZhCn, &[]),
            provider_http_error(Lang::ZhCn, 401, "").replace("HTTP", ""),
            models_unlisted(Lang::ZhCn, ""),
            download_failed(Lang::ZhCn, "", ""),
        ];
        for text in texts {
            assert_no_english_left(&text, &[]);
        }
    }

    #[test]
    fn the_english_notices_read_as_before() {
        assert_eq!(
            keys_needed(Lang::En, &["Groq".to_owned()]),
            "Enter the key for Groq; then resume the run from History."
        );
        assert_eq!(
            file_unreadable(Lang::En, "a.json", "NotReadableError"),
            "a.json: the file could not be read (NotReadableError)"
        );
        assert!(
            storage_failed(Lang::En, StorageStep::SavingSample, "quota")
                .ends_with("(a private window keeps nothing) (saving a sample: quota)")
        );
    }

    #[test]
    fn the_part_notice_is_said_in_each_language() {
        for lang in LANGS {
            assert!(!part_unloaded(lang).is_empty());
            assert!(!retry_part(lang).is_empty());
            assert!(!part_loading(lang).is_empty());
        }
        assert_no_english_left(part_unloaded(Lang::ZhCn), &[]);
        assert_no_english_left(retry_part(Lang::ZhCn), &[]);
        assert_no_english_left(part_loading(Lang::ZhCn), &[]);
        assert_ne!(part_unloaded(Lang::En), part_unloaded(Lang::ZhCn));
    }
}
