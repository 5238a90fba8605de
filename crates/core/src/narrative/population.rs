//! The sentences about the population of requests the figures come from in
//! a run with prompt sizes: which first sends the headline figures are, the
//! chart titles' note of it, and each target's verdict at every size.

use crate::base::lang::Lang;
use crate::judgement::population::Population;
use crate::judgement::report::SizeJudgement;

/// Which requests the headline figures come from, for a run with prompt
/// sizes: "Prompt sizes: every provider's figures are the first sends at
/// 128 tokens, the smallest size …". `None` for the plan's own prompt, where
/// the headline is every measured request and needs no note.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn population_sentence(
    lang: Lang,
    population: Population,
    typical_prompt_tokens: Option<u32>,
) -> Option<String> {
    let size = population.size()?;
    let tokens = crate::words::format::grouped(u64::from(size));
    Some(match (lang, typical_prompt_tokens) {
        (Lang::En, Some(typical)) => format!(
            "Prompt sizes: every provider's figures are the first sends at {tokens} tokens, the \
             measured size nearest your typical {} tokens; each size is judged on its own, never pooled \
             with another, and cache repeats and probes are left out.",
            crate::words::format::grouped(u64::from(typical))
        ),
        (Lang::En, None) => format!(
            "Prompt sizes: every provider's figures are the first sends at {tokens} tokens, the \
             smallest size; each size is judged on its own, never pooled with another, and cache repeats \
             and probes are left out."
        ),
        (Lang::ZhCn, Some(typical)) => format!(
            "提示词长度：各服务商的数字都来自 {tokens} Token 的首次发送，这是最接近你的典型长度（{} Token）的已测长度；\
             每个长度单独评判，从不与其他长度混合，缓存重复请求和探测请求不计入。",
            crate::words::format::grouped(u64::from(typical))
        ),
        (Lang::ZhCn, None) => format!(
            "提示词长度：各服务商的数字都来自 {tokens} Token 的首次发送，这是最小的长度；\
             每个长度单独评判，从不与其他长度混合，缓存重复请求和探测请求不计入。"
        ),
    })
}

/// What a chart's title adds to name its population in a run with prompt
/// sizes: " — first sends at 128 tokens"; `None` for the plan's prompt.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn population_suffix(lang: Lang, population: Population) -> Option<String> {
    let tokens = crate::words::format::grouped(u64::from(population.size()?));
    Some(match lang {
        Lang::En => format!(" — first sends at {tokens} tokens"),
        Lang::ZhCn => format!("——{tokens} Token 的首次发送"),
    })
}

/// One target's verdict at every prompt size, each size judged on its
/// own first sends: "solid at every size", or "solid at 128 and 2 048
/// tokens; cold starts at 16 384 tokens". `None` without sizes.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn by_size_sentence(lang: Lang, by_size: &[SizeJudgement]) -> Option<String> {
    if by_size.is_empty() {
        return None;
    }
    let label = |size: &SizeJudgement| size.judgement.finished_label(lang, true);
    let first = label(&by_size[0]);
    if by_size.len() > 1 && by_size.iter().all(|size| label(size) == first) {
        return Some(match lang {
            Lang::En => format!("{first} at every size"),
            Lang::ZhCn => format!("每个长度均为{first}"),
        });
    }
    // Sizes with the same label together, in the order labels first come.
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for size in by_size {
        let tokens = crate::words::format::grouped(u64::from(size.tokens));
        let name = label(size);
        match groups.iter_mut().find(|(existing, _)| *existing == name) {
            Some((_, sizes)) => sizes.push(tokens),
            None => groups.push((name, vec![tokens])),
        }
    }
    let parts: Vec<String> = groups
        .into_iter()
        .map(|(name, sizes)| match lang {
            Lang::En => {
                let list = match sizes.split_last() {
                    Some((last, rest)) if !rest.is_empty() => {
                        format!("{} and {last}", rest.join(", "))
                    }
                    _ => sizes.join(""),
                };
                format!("{name} at {list} tokens")
            }
            Lang::ZhCn => format!("{} Token：{name}", sizes.join("、")),
        })
        .collect();
    Some(match lang {
        Lang::En => parts.join("; "),
        Lang::ZhCn => parts.join("；"),
    })
}
