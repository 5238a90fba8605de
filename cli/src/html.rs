//! `firsttoken report --html`: the results view as one self-contained HTML
//! file, to attach to a ticket or a chat or keep beside a monitor's runs.
//!
//! Everything is inside the file: the styles in one `<style>`, the charts as
//! inline SVG drawn by the page's own chart code (the same chart items and
//! drawing functions as the page's canvas, onto plotters' SVG backend), the
//! routing exports as text. A Content-Security-Policy that allows nothing
//! but inline styles and `data:` images means a browser loads nothing from
//! anywhere and runs no script, whatever a file's strings say.
//!
//! The files are a stranger's: every string taken from them (labels, models,
//! the user agent, the vantage, error messages, probe names) is escaped for
//! HTML here, after its control and bidirectional characters were made
//! visible as for the terminal; the charts' text is escaped by plotters' SVG
//! writer. The figures are `core`'s, as `report --json` prints them: each
//! table cell with a number carries it unrounded in `data-value`.

use std::fmt::Write as _;
use std::rc::Rc;

use firsttoken_chart::items::{ChartItem, chart_svg, idle_chart_item, results_chart_items};
use firsttoken_core::documents::results::ResultsDoc;
use firsttoken_core::documents::results::ResultsView;
use firsttoken_core::judgement::prefill_report::prefill_report;
use firsttoken_core::judgement::report::Report;
use firsttoken_core::judgement::verdict::Lang;
use firsttoken_core::narrative::sentences::report_sentences;
use firsttoken_core::outline::idle::IDLE_CHART;
use firsttoken_core::outline::results::{Part, results_outline};
use firsttoken_core::outline::{Block, Role, Section, Show, Table};
use firsttoken_core::words::report_words::report_heading;

use crate::report::{ConfigFormat, config_text, started_text};

/// Width of each chart, in CSS pixels: legible on a laptop and on A4.
const CHART_WIDTH_PX: u32 = 720;

/// Width of each chart's narrow copy, in CSS pixels, shown instead on a
/// screen narrower than [`NARROW_SCREEN_PX`]. An SVG's text scales with its
/// viewBox, so the 720 px chart squeezed onto a phone has text about 5 px
/// high; this copy is laid out for the phone (the chart code sizes its
/// fonts for its width) and shown at about its own size.
const NARROW_CHART_WIDTH_PX: u32 = 360;

/// The page's palette and a layout that prints: tables and charts are not
/// split across pages, and the exports print in full.
const STYLE: &str = "
:root { --ink: #1b1f24; --muted: #57606a; --line: #d0d7de; --accent: #0b5cad; --bad: #a40e26; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, 'Segoe UI', 'Noto Sans', 'Noto Sans CJK SC', sans-serif;
  color: var(--ink); background: #fff; margin: 0 auto; max-width: 1040px; padding: 24px; }
h1 { font-size: 1.5rem; margin: 0 0 4px; }
h2 { font-size: 1.2rem; margin: 32px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 1rem; margin: 20px 0 6px; }
p.meta { color: var(--muted); margin: 0 0 16px; }
table { border-collapse: collapse; width: 100%; margin: 8px 0; font-variant-numeric: tabular-nums; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
td.num, th.num { text-align: right; white-space: nowrap; }
div.scroll { overflow-x: auto; margin: 8px 0; }
div.scroll > table { margin: 0; }
div.scroll th[scope=row] { position: sticky; left: 0; background: #fff; min-width: 9em; }
table.chart-numbers td:not(:first-child) { white-space: nowrap; }
figure svg.narrow { display: none; }
@media (max-width: 600px) {
  body { padding: 12px; }
  th, td { padding: 4px 6px; }
  figure svg.wide { display: none; }
  figure svg.narrow { display: block; }
  /* The outline's tables become one labelled block per row, as on the
     page: nine columns do not fit 400 px, and scrolled away they hide the
     CV, the errors and the verdict. */
  table.stack thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.stack, table.stack tbody { display: block; }
  table.stack tr { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); column-gap: 16px;
    padding: 8px 0; border-bottom: 1px solid var(--line); }
  table.stack th[scope=row] { grid-column: 1 / -1; order: -1; position: static; border: none; padding: 0 0 4px; min-width: 0; }
  table.stack th[scope=row].num { text-align: left; }
  table.stack td { display: flex; justify-content: space-between; gap: 8px; border: none; padding: 2px 0; }
  table.stack td::before { content: attr(data-label); color: var(--muted); font-size: 0.85em; text-align: left; }
  /* The rank stays, labelled, first under the name, as on the page. */
  table.stack td.verdict, table.stack td.wide { grid-column: 1 / -1; }
}
thead th { color: var(--muted); font-weight: 600; }
ul.said { padding-left: 20px; margin: 8px 0; }
ul.said li { margin: 2px 0; }
ul.said b { font-weight: 600; }
figure { margin: 16px 0; break-inside: avoid; page-break-inside: avoid; }
figure svg { display: block; max-width: 100%; height: auto; border: 1px solid var(--line); }
figcaption { font-weight: 600; margin-bottom: 4px; }
details { margin: 4px 0 12px; }
summary { cursor: pointer; color: var(--accent); }
pre { background: #f6f8fa; border: 1px solid var(--line); padding: 8px; overflow-x: auto;
  font-size: 12.5px; white-space: pre-wrap; word-break: break-word; }
footer { color: var(--muted); margin-top: 32px; font-size: 13px; }
@media print {
  body { max-width: none; padding: 0; font-size: 11pt; }
  h2 { break-after: avoid; page-break-after: avoid; }
  table, pre { break-inside: avoid; page-break-inside: avoid; }
  details > summary { display: none; }
  summary { color: var(--ink); }
}
";

/// Escapes `text` for HTML text and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            other => out.push(other),
        }
    }
    out
}

/// Opens the box a table scrolls in when it is wider than the screen, so
/// its last columns (CV, errors, verdict) stay within reach on a phone
/// while the page itself never scrolls sideways. The box takes the
/// keyboard focus, so it scrolls without a pointer too, and is named for
/// assistive technology by the heading or caption whose id is
/// `labelled_by` (an id of ours: no string of the file goes into an
/// attribute).
fn scroll_open(labelled_by: &str) -> String {
    format!(
        "<div class=\"scroll\" tabindex=\"0\" role=\"region\" aria-labelledby=\"{labelled_by}\">"
    )
}

/// The report of `doc` (already made printable with
/// [`crate::report::for_terminal`]) as one HTML document in `lang`.
pub fn to_html(doc: &ResultsDoc, report: &Report, lang: Lang) -> String {
    let environment = &doc.environment;
    let mut out = String::new();
    let heading = report_heading(
        lang,
        (doc.samples.len(), report.targets.len()),
        &started_text(lang, environment.started_at_ms, environment.tz_offset_min),
        &environment.user_agent,
        environment.vantage.as_deref(),
    );
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'; img-src data:\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"firsttoken {}\">\n\
         <title>FirstToken · {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n",
        lang.tag(),
        env!("CARGO_PKG_VERSION"),
        escape(
            &report
                .targets
                .iter()
                .map(|t| t.label.as_str())
                .collect::<Vec<_>>()
                .join(" · ")
        ),
    );
    let _ = writeln!(
        out,
        "<h1>FirstToken</h1>\n<p class=\"meta\">{}</p>",
        escape(&heading)
    );

    // The results in the outline's order: the printer adds no figure.
    let sentences = report_sentences(report, lang);
    let prefill = prefill_report(&doc.plan, &doc.samples, report.seed);
    for part in results_outline(lang, report, &sentences, prefill.as_ref(), doc.plan.nonce) {
        let section = match part {
            Part::Population(population) => {
                let _ = writeln!(out, "<p class=\"population\">{}</p>", escape(&population));
                continue;
            }
            Part::Charts => {
                charts(&mut out, doc, report, lang);
                continue;
            }
            Part::Section(section) => section,
        };
        // The section's own piece: the idle chart, or the configs made
        // from the routes (as `report --config` prints them).
        let chart = (section.chart() == Some(IDLE_CHART))
            .then(|| idle_chart_item(lang, report))
            .flatten();
        let exports = if section.blocks.contains(&Block::Exports) {
            exports_html(doc, report, lang)
        } else {
            String::new()
        };
        section_html(&mut out, &section, chart.as_ref(), &exports, lang);
    }
    let _ = writeln!(
        out,
        "</main>\n<footer>firsttoken {} · report --html</footer>\n</body>\n</html>",
        env!("CARGO_PKG_VERSION")
    );
    out
}

/// The configs made from the routes, each in an open `<details>`, as
/// `report --config` prints them.
fn exports_html(doc: &ResultsDoc, report: &Report, lang: Lang) -> String {
    let titles = match lang {
        Lang::En => [
            "LiteLLM router config (YAML)",
            "OpenRouter provider preferences (JSON)",
            "Routing table (JSON)",
        ],
        Lang::ZhCn => [
            "LiteLLM 路由配置（YAML）",
            "OpenRouter 服务商偏好（JSON）",
            "路由表（JSON）",
        ],
    };
    let formats = [
        ConfigFormat::Litellm,
        ConfigFormat::Openrouter,
        ConfigFormat::Routing,
    ];
    let mut exports = String::new();
    for (format, title) in formats.into_iter().zip(titles) {
        let _ = writeln!(
            exports,
            "<details open class=\"export\"><summary>{}</summary>\n<pre>{}</pre></details>",
            escape(title),
            escape(&config_text(doc, report, format, false))
        );
    }
    exports
}

/// A section of the report's outline (`core::outline`): its heading,
/// then each block in order. A table's heading column heads its rows, its
/// raw figures go in `data-` attributes and its rows stack into labelled
/// blocks on a phone; a list gives each sentence with its target's label;
/// a block's name is a sub-heading or a bold lead, as the outline says.
/// Core decides what the section holds; this only lays it out.
fn section_html(
    out: &mut String,
    section: &Section,
    chart: Option<&ChartItem>,
    exports: &str,
    lang: Lang,
) {
    let id = escape(&section.id);
    let _ = write!(out, "<section class=\"{}\"", escape(section.kind));
    for (name, value) in &section.data {
        let _ = write!(out, " {}=\"{}\"", escape(name), escape(value));
    }
    let _ = writeln!(out, ">\n<h2 id=\"{id}\">{}</h2>", escape(&section.title));
    let colon = escape(firsttoken_core::narrative::sentences::colon(lang));
    for block in &section.blocks {
        match block {
            Block::Table(table) => table_html(out, &section.id, table),
            Block::Notes(notes) => {
                if notes.show == Show::Heading {
                    let _ = writeln!(out, "<h3>{}</h3>", escape(notes.name));
                }
                let _ = writeln!(out, "<ul class=\"said {}\">", escape(notes.class));
                for note in &notes.items {
                    out.push_str("<li");
                    if let Some(target) = note.target {
                        let _ = write!(out, " data-target=\"{target}\"");
                    }
                    for (name, value) in &note.data {
                        let _ = write!(out, " {}=\"{}\"", escape(name), escape(value));
                    }
                    if notes.show == Show::Lead {
                        let _ = write!(out, "><b>{}</b>{colon}", escape(notes.name));
                    } else {
                        out.push('>');
                    }
                    let _ = writeln!(
                        out,
                        "<b>{}</b>{colon}{}</li>",
                        escape(&note.label),
                        escape(&note.text)
                    );
                }
                out.push_str("</ul>\n");
            }
            Block::Sentence(sentence) => {
                if sentence.show == Show::Heading {
                    let _ = writeln!(out, "<h3>{}</h3>", escape(sentence.name));
                }
                let _ = write!(out, "<p class=\"{}\"", escape(sentence.class));
                for (name, value) in &sentence.data {
                    let _ = write!(out, " {}=\"{}\"", escape(name), escape(value));
                }
                out.push('>');
                if sentence.show == Show::Lead {
                    let _ = write!(out, "<b>{}</b>{colon}", escape(sentence.name));
                }
                let _ = writeln!(out, "{}</p>", escape(&sentence.text));
            }
            Block::Hint(hint) => {
                let _ = writeln!(out, "<p class=\"hint\">{}</p>", escape(hint));
            }
            Block::Chart(_) => {
                if let Some(item) = chart {
                    chart_figure(out, item, lang, false);
                }
            }
            Block::Exports => out.push_str(exports),
        }
    }
    out.push_str("</section>\n");
}

/// A table of the outline in its scrolling box, labelled by the section's
/// heading `id`.
fn table_html(out: &mut String, id: &str, table: &Table) {
    if let Some(title) = &table.title {
        let _ = writeln!(out, "<h3>{}</h3>", escape(title));
    }
    let _ = write!(
        out,
        "{}<table class=\"{} stack\"",
        scroll_open(&escape(id)),
        escape(table.class)
    );
    for (name, value) in &table.data {
        let _ = write!(out, " {}=\"{}\"", escape(name), escape(value));
    }
    out.push_str(">\n<thead><tr>");
    for column in &table.columns {
        let class = if column.numeric { " class=\"num\"" } else { "" };
        let _ = write!(
            out,
            "<th scope=\"col\"{class}>{}</th>",
            escape(column.heading)
        );
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    let heading = table.heading_column();
    for row in &table.rows {
        out.push_str("<tr");
        for (name, value) in &row.data {
            let _ = write!(out, " {}=\"{}\"", escape(name), escape(value));
        }
        out.push('>');
        for (k, (cell, column)) in row.cells.iter().zip(&table.columns).enumerate() {
            if k == heading {
                // The heading cell's own figure (a prompt size), if any.
                let value = match row.values.get(k) {
                    Some(Some(value)) => format!(" data-value=\"{}\"", escape(value)),
                    _ => String::new(),
                };
                // A number (a prompt size) aligns right, under its heading.
                let class = if column.numeric { " class=\"num\"" } else { "" };
                let _ = write!(out, "<th scope=\"row\"{class}{value}>{}</th>", escape(cell));
                continue;
            }
            let classes: Vec<&str> = [
                (column.numeric, "num"),
                (column.wide, "wide"),
                (column.role == Role::Rank, "rank"),
                (column.role == Role::Verdict, "verdict"),
                (!column.class.is_empty(), column.class),
            ]
            .into_iter()
            .filter_map(|(on, class)| on.then_some(class))
            .collect();
            let mut attributes = if classes.is_empty() {
                String::new()
            } else {
                format!(" class=\"{}\"", classes.join(" "))
            };
            let _ = write!(attributes, " data-label=\"{}\"", escape(column.heading));
            if let Some(Some(value)) = row.values.get(k) {
                let _ = write!(attributes, " data-value=\"{}\"", escape(value));
            }
            if row.lower_bounds.get(k) == Some(&true) {
                attributes.push_str(" data-lower-bound=\"true\"");
            }
            let _ = write!(out, "<td{attributes}>{}</td>", escape(cell));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n</div>\n");
}

/// The page's results charts, each as inline SVG with its numbers in a
/// table under it.
fn charts(out: &mut String, doc: &ResultsDoc, report: &Report, lang: Lang) {
    let view = ResultsView {
        plan: doc.plan.clone(),
        environment: doc.environment.clone(),
        samples: Rc::new(doc.samples.clone()),
    };
    let items = results_chart_items(lang, &view, report);
    if items.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "<section class=\"charts\">\n<h2>{}</h2>",
        escape(lang.texts().charts)
    );
    for item in &items {
        chart_figure(out, item, lang, true);
    }
    out.push_str("</section>\n");
}

/// One chart as a figure: its caption, the SVG for wide screens and print
/// and its copy laid out for a phone, then (`with_numbers`) its numbers in
/// a table, left out where the same table stands just above it.
fn chart_figure(out: &mut String, item: &ChartItem, lang: Lang, with_numbers: bool) {
    // The chart for wide screens and print, then its copy laid out for
    // a phone; the style shows one of them.
    let drawn = chart_svg(item, CHART_WIDTH_PX, lang)
        .and_then(|wide| Ok((wide, chart_svg(item, NARROW_CHART_WIDTH_PX, lang)?)));
    let (wide, narrow) = match drawn {
        Ok(both) => both,
        Err(error) => {
            let _ = writeln!(out, "<p>{}</p>", escape(&error.to_string()));
            return;
        }
    };
    // plotters writes `<svg width=… height=… viewBox=…`: it keeps its
    // proportions when the page is narrower, and names itself for
    // screen readers by its caption.
    let named = |svg: String, class: &str| {
        svg.replacen(
            "<svg ",
            &format!(
                "<svg class=\"{class}\" role=\"img\" aria-labelledby=\"{}-caption\" ",
                escape(&item.id)
            ),
            1,
        )
    };
    let _ = writeln!(
        out,
        "<figure class=\"chart\" id=\"{id}\">\n<figcaption id=\"{id}-caption\">{}</figcaption>\n{}\n{}",
        escape(&item.title),
        named(wide, "wide"),
        named(narrow, "narrow"),
        id = escape(&item.id),
    );
    if with_numbers && !item.rows.is_empty() {
        out.push_str(&scroll_open(&format!("{}-caption", escape(&item.id))));
        out.push_str("<table class=\"chart-numbers\"><thead><tr>");
        for column in &item.columns {
            let _ = write!(out, "<th scope=\"col\">{}</th>", escape(column));
        }
        out.push_str("</tr></thead><tbody>\n");
        for row in &item.rows {
            out.push_str("<tr>");
            for cell in row {
                let _ = write!(out, "<td>{}</td>", escape(cell));
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody></table>\n</div>\n");
    }
    out.push_str("</figure>\n");
}
