//! The one language type of the project: the page's texts, core's
//! sentences and the terminal's all take it.

/// A language the page and `firsttoken report` speak: the one language type
/// of the project (the page's texts, core's sentences and the terminal's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Simplified Chinese.
    ZhCn,
}

impl Lang {
    /// Every language, in the order the page lists them.
    pub const ALL: [Self; 2] = [Self::En, Self::ZhCn];

    /// The language for a browser's preferred languages: Chinese for any
    /// `zh` tag (Traditional readers still read the numbers), else English.
    pub fn from_browser(languages: &[String]) -> Self {
        match languages.first() {
            Some(tag) if tag.to_ascii_lowercase().starts_with("zh") => Self::ZhCn,
            _ => Self::En,
        }
    }

    /// The BCP 47 tag (`<html lang>`, `firsttoken report --lang`).
    pub fn tag(self) -> &'static str {
        match self {
            Self::En => "en",
            Self::ZhCn => "zh-CN",
        }
    }

    /// The language a BCP 47 tag names: `en…` or `zh…`; `None` otherwise.
    pub fn from_tag(tag: &str) -> Option<Self> {
        let tag = tag.trim().to_ascii_lowercase();
        if tag == "en" || tag.starts_with("en-") {
            Some(Self::En)
        } else if tag == "zh" || tag.starts_with("zh-") {
            Some(Self::ZhCn)
        } else {
            None
        }
    }
}
