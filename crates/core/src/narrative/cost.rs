//! The sentences about cost: what a target's run cost, per successful
//! request and in all, and what a plan will cost at most before it starts.

use crate::base::lang::Lang;
use crate::judgement::cost::{CostFigures, PlanCost};
use crate::words::format::format_usd;

/// A target's cost: "$0.00041 per successful request; $0.031 for the run
/// (77 charged requests)", with "some token counts were estimated" when
/// they were.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn cost_sentence(lang: Lang, cost: &CostFigures) -> String {
    let per = cost
        .per_success_usd
        .map_or_else(|| "–".to_owned(), format_usd);
    let run = format_usd(cost.run_usd);
    let charged = cost.charged;
    match (lang, cost.estimated) {
        (Lang::En, estimated) => format!(
            "{per} per successful request; {run} for the run ({charged} charged requests, \
             warm-ups included){}",
            if estimated {
                "; some token counts were estimated, not the provider's"
            } else {
                ""
            }
        ),
        (Lang::ZhCn, estimated) => format!(
            "每个成功请求 {per}；整次运行 {run}（{charged} 个计费请求，含预热）{}",
            if estimated {
                "；部分令牌数为估算，并非服务商报告"
            } else {
                ""
            }
        ),
    }
}

/// What a plan will cost before Start: "At most about $0.04 for 300
/// requests at the prices in the plan (every reply at max tokens)."
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn plan_cost_sentence(lang: Lang, cost: &PlanCost) -> String {
    let usd = format_usd(cost.at_most_usd);
    let requests = cost.requests;
    let unpriced = cost.unpriced_targets;
    match lang {
        Lang::En => format!(
            "At most about {usd} for {requests} requests at the prices in the plan (every reply \
             at max tokens){}.",
            if unpriced > 0 {
                format!("; {unpriced} targets without a price are not counted")
            } else {
                String::new()
            }
        ),
        Lang::ZhCn => format!(
            "按计划中的价格，{requests} 个请求最多约 {usd}（按每个回复都达到最大令牌数计）{}。",
            if unpriced > 0 {
                format!("；{unpriced} 个没有价格的目标未计入")
            } else {
                String::new()
            }
        ),
    }
}
