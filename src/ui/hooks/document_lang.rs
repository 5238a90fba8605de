//! `use_document_lang`: the document's `lang` follows the page's language,
//! so screen readers, fonts and line breaking follow it too.

use yew::prelude::*;

use crate::ui::model::i18n::Lang;

/// Sets `<html lang>` to `lang`'s tag whenever it changes.
#[hook]
pub fn use_document_lang(lang: Lang) {
    use_effect_with(lang, move |lang| {
        if let Some(root) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
        {
            let _ = root.set_attribute("lang", lang.tag());
        }
    });
}
