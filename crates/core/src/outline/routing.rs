//! "Routing": per model, the target to send it to (or none yet), how that
//! target did in the fidelity check, and why, then the place of the configs
//! made from it (the page's download buttons, the HTML report's config
//! texts; the terminal has `firsttoken report --config`).
//!
//! The page, the terminal report and the HTML report print this section,
//! so a route is written once, here.

use super::{Block, Column, Role, Row, Section, Table};
use crate::base::lang::Lang;
use crate::judgement::report::Report;
use crate::narrative::fidelity::verdict_word;

/// The section's id (its anchor on the page and in the HTML report).
pub const ROUTING_ID: &str = "routing";

/// The section of `report`, or `None` when it has no model to route.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn routing_section(lang: Lang, report: &Report) -> Option<Section> {
    let routes = report.routing_in(lang).routes;
    if routes.is_empty() {
        return None;
    }
    let t = lang.texts();
    let columns = vec![
        // The model heads its row: a model with no route yet has no target.
        Column::new(t.model, false).role(Role::Heading),
        // A label takes a stacked row's whole width, as the reason does.
        Column::new(t.target, false).wide(),
        Column::new(t.fidelity, false)
            .role(Role::Fidelity)
            .class("fidelity-cell"),
        Column::new(t.reason, false).wide().class("wrap"),
    ];
    let rows = routes
        .into_iter()
        .map(|route| {
            let fidelity = route.fidelity;
            let mut data = vec![("data-model", route.model.clone())];
            if let Some(target) = route.target {
                data.push(("data-target", target.to_string()));
            }
            Row {
                cells: vec![
                    route.model,
                    route.label.unwrap_or_else(|| "–".to_owned()),
                    fidelity.map_or("–", |v| verdict_word(lang, v)).to_owned(),
                    route.reason,
                ],
                // The fidelity verdict as the results file spells it.
                values: vec![None, None, fidelity.map(|v| v.as_str().to_owned()), None],
                lower_bounds: Vec::new(),
                data,
                judgement: None,
            }
        })
        .collect();
    let mut section = Section::new(ROUTING_ID, "routing", t.routing);
    section.blocks = vec![
        Block::Table(Table {
            class: "routing",
            columns,
            rows,
            ..Table::default()
        }),
        Block::Exports,
    ];
    Some(section)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judgement::report::build_report;
    use crate::planning::plan::{Plan, Target};
    use crate::testing::fixtures::sample;

    #[test]
    fn a_row_per_model_with_its_route_then_the_exports() {
        let plan = Plan {
            targets: vec![Target::demo("A", "m"), Target::demo("B", "n")],
            ..Plan::default()
        };
        let samples: Vec<_> = (0..30)
            .flat_map(|i| {
                let at = f64::from(i) * 1_000.0;
                [
                    sample(0, i, at, Some(300.0 + f64::from(i % 4)), false),
                    sample(1, i, at, Some(500.0), false),
                ]
            })
            .collect();
        let report = build_report(&plan, &samples, 0, 1);
        for lang in [Lang::En, Lang::ZhCn] {
            let section = routing_section(lang, &report).expect("two models");
            let table = section.tables().next().unwrap();
            let routes = report.routing_in(lang).routes;
            assert_eq!(table.rows.len(), routes.len());
            for (row, route) in table.rows.iter().zip(&routes) {
                assert_eq!(row.cells[0], route.model);
                assert_eq!(Some(&row.cells[1]), route.label.as_ref());
                assert_eq!(row.cells[3], route.reason);
                assert!(row.data.contains(&("data-model", route.model.clone())));
            }
            assert_eq!(section.blocks.last(), Some(&Block::Exports));
        }
        let empty = build_report(&Plan::default(), &[], 0, 1);
        assert!(routing_section(Lang::En, &empty).is_none());
    }
}
