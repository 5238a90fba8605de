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
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn from_browser(languages: &[String]) -> Self {
        match languages.first() {
            Some(tag) if tag.to_ascii_lowercase().starts_with("zh") => Self::ZhCn,
            _ => Self::En,
        }
    }

    /// The BCP 47 tag (`<html lang>`, `firsttoken report --lang`).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn tag(self) -> &'static str {
        match self {
            Self::En => "en",
            Self::ZhCn => "zh-CN",
        }
    }

    /// The language a BCP 47 tag names: `en…` or `zh…`; `None` otherwise.
    #[cfg_attr(target_arch = "wasm32", inline)]
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

/// Declares a texts struct, one `&'static str` per field, and its `all()`
/// from one list of names: a text cannot be added to the struct without
/// being walked by the checks that read `all()` (no English leftovers), and
/// every language's value must fill it or nothing compiles. The page's
/// texts (`ui::model::i18n`) and the terminal's report words are declared with it.
macro_rules! texts {
    ($(#[doc = $doc:expr])* $name:ident { $($field:ident),* $(,)? }) => {
        $(#[doc = $doc])*
        #[expect(missing_docs, reason = "each field is the text its name says")]
        pub struct $name {
            $(pub $field: &'static str,)*
        }

        impl $name {
            /// Every text, for checks that walk them all.
            #[cfg_attr(target_arch = "wasm32", inline)]
            pub fn all(&self) -> Vec<&'static str> {
                vec![$(self.$field),*]
            }
        }
    };
}

pub(crate) use texts;

/// Fails when `text`, a Chinese text, still holds Latin letters once each
/// of `kept` (what may stay as it is: a member's name, a product's, a
/// detail passed through) is taken out. The checks of every Chinese text
/// core makes call it.
#[cfg(test)]
pub(crate) fn assert_no_english_left(text: &str, kept: &[&str]) {
    let rest = kept
        .iter()
        .fold(text.to_owned(), |rest, word| rest.replace(word, ""));
    assert!(
        !rest.chars().any(|c| c.is_ascii_alphabetic()),
        "English left in: {text}"
    );
}
