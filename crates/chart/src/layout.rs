//! Layout shared by every chart: sizes that follow the chart's CSS width and
//! the device pixel ratio, the title block, the "no data" message, the
//! legend drawn below the plot (it never covers data and wraps on narrow
//! screens), and tick thinning so labels never overlap.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{FontFamily, FontStyle, TextStyle};

use firsttoken_core::base::lang::Lang;

use super::axis::{TickAxis, log_ticks, tick_ms};
use super::palette::{Theme, theme};
use super::{Area, ChartError, ChartStyle};

/// Sizes in device pixels for one chart, derived from its CSS width.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Metrics {
    /// Device pixels per CSS pixel.
    pub scale: f64,
    /// Title font size.
    pub title_px: f64,
    /// Axis title and legend font size.
    pub text_px: f64,
    /// Tick label font size.
    pub tick_px: f64,
    /// Notes and marker labels.
    pub small_px: f64,
    /// Outer padding.
    pub pad_px: u32,
    /// Data line width.
    pub line_px: u32,
    /// Point marker radius.
    pub dot_px: u32,
    /// Plot width in CSS pixels (for choosing bin counts and such).
    pub css_width: f64,
}

impl Metrics {
    /// Sizes for `area` drawn with `style`: fonts grow from their 400 px
    /// sizes to their 1280 px sizes and stay there beyond.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub(crate) fn new<DB: DrawingBackend>(area: &Area<DB>, style: &ChartStyle) -> Self {
        let scale = if style.font_scale.is_finite() && style.font_scale > 0.0 {
            style.font_scale.clamp(0.25, 8.0)
        } else {
            1.0
        };
        let (width, _) = area.dim_in_pixel();
        let css_width = style
            .width_px
            .map_or(f64::from(width) / scale, f64::from)
            .max(1.0);
        // 0 at 400 px wide, 1 at 1280 px.
        let t = ((css_width - 400.0) / 880.0).clamp(0.0, 1.0);
        let lerp = |small: f64, large: f64| (small + (large - small) * t) * scale;
        Self {
            scale,
            title_px: lerp(15.0, 19.0),
            text_px: lerp(12.5, 15.0),
            tick_px: lerp(11.5, 14.0),
            small_px: lerp(11.0, 13.0),
            pad_px: lerp(8.0, 14.0).round() as u32,
            line_px: lerp(1.6, 2.0).round().max(1.0) as u32,
            dot_px: lerp(2.0, 3.0).round().max(1.0) as u32,
            css_width,
        }
    }

    /// `css` pixels in device pixels.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub(crate) fn px(&self, css: f64) -> u32 {
        (css * self.scale).round().max(0.0) as u32
    }
}

/// Fonts and colours for one chart.
pub(crate) struct Ink<'a> {
    pub metrics: Metrics,
    pub theme: Theme,
    /// The language of tick labels' units.
    pub units: Lang,
    family: &'a str,
}

impl<'a> Ink<'a> {
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub(crate) fn new<DB: DrawingBackend>(area: &Area<DB>, style: &'a ChartStyle) -> Self {
        let family = if style.font_family.trim().is_empty() {
            "sans-serif"
        } else {
            style.font_family.as_str()
        };
        Self {
            metrics: Metrics::new(area, style),
            theme: theme(style.dark),
            units: style.labels.units,
            family,
        }
    }

    /// A text style of `size_px` device pixels in `colour`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub(crate) fn font(&self, size_px: f64, colour: RGBColor) -> TextStyle<'a> {
        // `TextStyle::color` wants a reference living as long as the style,
        // but only copies the colour: set the field directly instead.
        let mut style =
            TextStyle::from((FontFamily::Name(self.family), size_px, FontStyle::Normal));
        style.color = colour.to_backend_color();
        style
    }

    #[cfg_attr(target_arch = "wasm32", inline)]
    pub(crate) fn tick_font(&self) -> TextStyle<'a> {
        self.font(self.metrics.tick_px, self.theme.text)
    }

    #[cfg_attr(target_arch = "wasm32", inline)]
    pub(crate) fn text_font(&self) -> TextStyle<'a> {
        self.font(self.metrics.text_px, self.theme.text)
    }

    #[cfg_attr(target_arch = "wasm32", inline)]
    pub(crate) fn small_font(&self, colour: RGBColor) -> TextStyle<'a> {
        self.font(self.metrics.small_px, colour)
    }
}

/// Width and height of `text` in `font` as the backend estimates them.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn text_size<DB: DrawingBackend>(
    area: &Area<DB>,
    text: &str,
    font: &TextStyle<'_>,
) -> (u32, u32) {
    area.estimate_text_size(text, font).unwrap_or((0, 0))
}

/// `text`, shortened with "…" until it fits in `max_width` pixels.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn fit_text<DB: DrawingBackend>(
    area: &Area<DB>,
    text: &str,
    font: &TextStyle<'_>,
    max_width: u32,
) -> String {
    if text_size(area, text, font).0 <= max_width {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    for keep in (1..chars.len()).rev() {
        let candidate: String = chars[..keep].iter().collect::<String>() + "…";
        if text_size(area, &candidate, font).0 <= max_width {
            return candidate;
        }
    }
    "…".into()
}

/// Fills the background, draws the title (and a muted subtitle under it)
/// and returns the area left for the chart.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn draw_frame<DB: DrawingBackend>(
    area: &Area<DB>,
    ink: &Ink<'_>,
    title: &str,
    subtitle: &str,
) -> Result<Area<DB>, ChartError> {
    area.fill(&ink.theme.background)?;
    let pad = ink.metrics.pad_px;
    let (width, _) = area.dim_in_pixel();
    let usable = width.saturating_sub(2 * pad);
    let mut y = pad as i32;
    if !title.trim().is_empty() {
        let font = ink.font(ink.metrics.title_px, ink.theme.text);
        let text = fit_text(area, title, &font, usable);
        area.draw_text(
            &text,
            &font.pos(Pos::new(HPos::Left, VPos::Top)),
            (pad as i32, y),
        )?;
        y += (ink.metrics.title_px * 1.3).round() as i32;
    }
    if !subtitle.trim().is_empty() {
        let font = ink.small_font(ink.theme.muted);
        let text = fit_text(area, subtitle, &font, usable);
        area.draw_text(
            &text,
            &font.pos(Pos::new(HPos::Left, VPos::Top)),
            (pad as i32, y),
        )?;
        y += (ink.metrics.small_px * 1.35).round() as i32;
    }
    let top = u32::try_from(y).unwrap_or(0) + pad / 2;
    Ok(area.margin(top, pad, pad, pad))
}

/// Writes the "no data" message in the middle of `area`.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn draw_no_data<DB: DrawingBackend>(
    area: &Area<DB>,
    ink: &Ink<'_>,
    message: &str,
) -> Result<(), ChartError> {
    let (width, height) = area.dim_in_pixel();
    let font = ink
        .font(ink.metrics.text_px * 1.2, ink.theme.muted)
        .pos(Pos::new(HPos::Center, VPos::Center));
    let centre = (
        i32::try_from(width / 2).unwrap_or(0),
        i32::try_from(height / 2).unwrap_or(0),
    );
    area.draw_text(message, &font, centre)?;
    Ok(())
}

/// The little picture in front of a legend label.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Swatch {
    /// A line, optionally dashed.
    Line { colour: RGBColor, dashed: bool },
    /// A filled block (bars, shaded bands).
    Block(RGBColor),
    /// A filled dot.
    Dot(RGBColor),
    /// A bigger dot with a ring (highlighted points).
    Ring { fill: RGBColor, ring: RGBColor },
    /// An × (errors).
    Cross(RGBColor),
    /// A diamond (p95 markers).
    Diamond(RGBColor),
    /// A line, optionally dashed, with the marker its points are drawn
    /// with: a series drawn as both shows both in its legend, so a chart
    /// of one day or one hour (markers, no line) still matches it.
    Marked {
        colour: RGBColor,
        dashed: bool,
        mark: Mark,
    },
}

/// A point marker.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Mark {
    /// A filled dot (medians).
    Dot,
    /// A filled diamond (p95s).
    Diamond,
}

/// One legend entry.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LegendItem {
    pub swatch: Swatch,
    pub label: String,
}

/// Rows of legend items that fit in `width` pixels: `(item index, x)` each.
#[cfg_attr(target_arch = "wasm32", inline)]
fn legend_rows<DB: DrawingBackend>(
    area: &Area<DB>,
    ink: &Ink<'_>,
    items: &[LegendItem],
    width: u32,
) -> Vec<Vec<(usize, i32, String)>> {
    let font = ink.small_font(ink.theme.text);
    let swatch_w = ink.metrics.px(18.0);
    let gap = ink.metrics.px(6.0);
    let spacing = ink.metrics.px(16.0);
    let mut rows: Vec<Vec<(usize, i32, String)>> = vec![Vec::new()];
    let mut x = 0u32;
    for (index, item) in items.iter().enumerate() {
        let label = fit_text(
            area,
            &item.label,
            &font,
            width.saturating_sub(swatch_w + gap).max(1),
        );
        let item_w = swatch_w + gap + text_size(area, &label, &font).0;
        if x > 0 && x + item_w > width {
            rows.push(Vec::new());
            x = 0;
        }
        if let Some(row) = rows.last_mut() {
            row.push((index, i32::try_from(x).unwrap_or(0), label));
        }
        x += item_w + spacing;
    }
    rows.retain(|row| !row.is_empty());
    rows
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn legend_row_height(ink: &Ink<'_>) -> u32 {
    (ink.metrics.small_px * 1.6).round() as u32
}

/// Height the legend for `items` needs at the bottom of `area`.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn legend_height<DB: DrawingBackend>(
    area: &Area<DB>,
    ink: &Ink<'_>,
    items: &[LegendItem],
) -> u32 {
    if items.is_empty() {
        return 0;
    }
    let (width, _) = area.dim_in_pixel();
    let rows = legend_rows(area, ink, items, width);
    u32::try_from(rows.len()).unwrap_or(1) * legend_row_height(ink) + ink.metrics.pad_px / 2
}

/// Splits `area` into the plot (top) and the legend strip (bottom), draws
/// the legend there and returns the plot area.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn split_legend<DB: DrawingBackend>(
    area: &Area<DB>,
    ink: &Ink<'_>,
    items: &[LegendItem],
) -> Result<Area<DB>, ChartError> {
    let needed = legend_height(area, ink, items);
    if needed == 0 {
        return Ok(area.clone());
    }
    let (_, height) = area.dim_in_pixel();
    let (plot, legend) = area.split_vertically(height.saturating_sub(needed));
    draw_legend(&legend, ink, items)?;
    Ok(plot)
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn draw_legend<DB: DrawingBackend>(
    area: &Area<DB>,
    ink: &Ink<'_>,
    items: &[LegendItem],
) -> Result<(), ChartError> {
    let (width, _) = area.dim_in_pixel();
    let font = ink
        .small_font(ink.theme.text)
        .pos(Pos::new(HPos::Left, VPos::Center));
    let row_h = i32::try_from(legend_row_height(ink)).unwrap_or(16);
    let swatch_w = i32::try_from(ink.metrics.px(18.0)).unwrap_or(18);
    let gap = i32::try_from(ink.metrics.px(6.0)).unwrap_or(6);
    let top = i32::try_from(ink.metrics.pad_px / 2).unwrap_or(0);
    for (row_index, row) in legend_rows(area, ink, items, width).iter().enumerate() {
        let y = top + row_h * i32::try_from(row_index).unwrap_or(0) + row_h / 2;
        for (index, x, label) in row {
            let Some(item) = items.get(*index) else {
                continue;
            };
            draw_swatch(area, ink, item.swatch, (*x, y), swatch_w)?;
            area.draw_text(label, &font, (x + swatch_w + gap, y))?;
        }
    }
    Ok(())
}

/// Draws `swatch` with its left edge at `x`, centred vertically on `y`.
#[cfg_attr(target_arch = "wasm32", inline)]
fn draw_swatch<DB: DrawingBackend>(
    area: &Area<DB>,
    ink: &Ink<'_>,
    swatch: Swatch,
    (x, y): (i32, i32),
    w: i32,
) -> Result<(), ChartError> {
    let m = &ink.metrics;
    let r = i32::try_from(m.dot_px).unwrap_or(2);
    let centre = (x + w / 2, y);
    match swatch {
        Swatch::Line { colour, dashed } => {
            let style = colour.stroke_width(m.line_px);
            if dashed {
                let dash = w / 4;
                area.draw(&PathElement::new(vec![(x, y), (x + dash, y)], style))?;
                area.draw(&PathElement::new(
                    vec![(x + w - dash, y), (x + w, y)],
                    style,
                ))?;
                area.draw(&PathElement::new(
                    vec![(x + w / 2 - dash / 2, y), (x + w / 2 + dash / 2, y)],
                    style,
                ))?;
            } else {
                area.draw(&PathElement::new(vec![(x, y), (x + w, y)], style))?;
            }
        }
        Swatch::Block(colour) => {
            let h = w / 3;
            area.draw(&Rectangle::new(
                [(x + 2, y - h), (x + w - 2, y + h)],
                colour.filled(),
            ))?;
        }
        Swatch::Dot(colour) => {
            area.draw(&Circle::new(centre, r + 1, colour.filled()))?;
        }
        Swatch::Ring { fill, ring } => {
            area.draw(&Circle::new(centre, r + 2, fill.filled()))?;
            area.draw(&Circle::new(
                centre,
                r + 2,
                ring.stroke_width(m.px(1.2).max(1)),
            ))?;
        }
        Swatch::Cross(colour) => {
            area.draw(&Cross::new(
                centre,
                r + 2,
                colour.stroke_width(m.px(1.8).max(1)),
            ))?;
        }
        Swatch::Diamond(colour) => {
            area.draw(&diamond(centre, r + 2, colour))?;
        }
        Swatch::Marked {
            colour,
            dashed,
            mark,
        } => {
            draw_swatch(area, ink, Swatch::Line { colour, dashed }, (x, y), w)?;
            let marker = match mark {
                Mark::Dot => Swatch::Dot(colour),
                Mark::Diamond => Swatch::Diamond(colour),
            };
            draw_swatch(area, ink, marker, (x, y), w)?;
        }
    }
    Ok(())
}

/// A filled diamond of half-diagonal `r` pixels at `centre`, in backend
/// coordinates.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn diamond(centre: (i32, i32), r: i32, colour: RGBColor) -> Polygon<(i32, i32)> {
    let (x, y) = centre;
    Polygon::new(
        vec![(x, y - r), (x + r, y), (x, y + r), (x - r, y)],
        colour.filled(),
    )
}

/// The densest log ticks between `lo` and `hi` whose labels, laid along an
/// axis `length` pixels long, keep at least one label height apart
/// (horizontal axes measure label widths, vertical ones heights).
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn fitted_log_axis<DB: DrawingBackend>(
    area: &Area<DB>,
    ink: &Ink<'_>,
    (lo, hi): (f64, f64),
    length: u32,
    horizontal: bool,
) -> TickAxis {
    fitted_log_axis_with(area, ink, (lo, hi), length, horizontal, &|ms| {
        tick_ms(ink.units, ms)
    })
}

/// [`fitted_log_axis`] for labels made by `format` (token counts, say).
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn fitted_log_axis_with<DB: DrawingBackend>(
    area: &Area<DB>,
    ink: &Ink<'_>,
    (lo, hi): (f64, f64),
    length: u32,
    horizontal: bool,
    format: &dyn Fn(f64) -> String,
) -> TickAxis {
    let font = ink.tick_font();
    for max_ticks in (2..=12).rev() {
        let ticks = log_ticks(lo, hi, max_ticks);
        let axis = TickAxis::log(lo, hi, ticks);
        if labels_fit(area, &font, &axis, length, horizontal, format) {
            return axis;
        }
    }
    let ticks = log_ticks(lo, hi, 2);
    TickAxis::log(lo, hi, ticks)
}

/// Whether the labels of `axis`'s major ticks, formatted by `format`, fit
/// along `length` pixels without touching. `format` is `dyn` so that this
/// is compiled once, not once per axis kind.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn labels_fit<DB: DrawingBackend>(
    area: &Area<DB>,
    font: &TextStyle<'_>,
    axis: &TickAxis,
    length: u32,
    horizontal: bool,
    format: &dyn Fn(f64) -> String,
) -> bool {
    let gap = font.font.get_size() * 0.9;
    let spans: Vec<(f64, f64)> = axis
        .major
        .iter()
        .map(|v| {
            let centre = axis.fraction(*v) * f64::from(length);
            let (w, h) = text_size(area, &format(*v), font);
            let extent = if horizontal {
                f64::from(w)
            } else {
                f64::from(h)
            };
            (centre - extent / 2.0, centre + extent / 2.0)
        })
        .collect();
    spans.windows(2).all(|pair| pair[1].0 - pair[0].1 >= gap)
}

/// Width in pixels of the widest tick label, for sizing the y label area.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn widest_label<DB: DrawingBackend>(
    area: &Area<DB>,
    font: &TextStyle<'_>,
    labels: impl Iterator<Item = String>,
) -> u32 {
    labels
        .map(|label| text_size(area, &label, font).0)
        .max()
        .unwrap_or(0)
}

/// A chart context whose axes are both [`TickAxis`].
pub(crate) type Plot<'a, DB> = ChartContext<'a, DB, Cartesian2d<TickAxis, TickAxis>>;

/// One axis of [`build_plot`]: how to make it once its length in pixels is
/// known, how to label its ticks and its title.
///
/// `make` is a `dyn` closure, like `format`, so that [`build_plot`] is
/// compiled once for all charts rather than once per chart's closures.
pub(crate) struct AxisPlan<'f> {
    pub make: &'f dyn Fn(u32) -> TickAxis,
    pub format: &'f dyn Fn(&f64) -> String,
    pub title: &'f str,
}

/// Lays out label areas, builds the axes in the order their sizes depend on
/// each other (x label height → y length → y labels' width → x length) and
/// draws the grid, ticks and axis titles.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn build_plot<'a, DB: DrawingBackend>(
    area: &'a Area<DB>,
    ink: &Ink<'_>,
    x: AxisPlan<'_>,
    y: AxisPlan<'_>,
) -> Result<Plot<'a, DB>, ChartError> {
    let m = &ink.metrics;
    let (width, height) = area.dim_in_pixel();
    let top = m.px(6.0);
    let right = m.px(22.0);
    let x_area = (m.tick_px * 1.4).round() as u32
        + m.px(10.0)
        + if x.title.is_empty() {
            0
        } else {
            (m.text_px * 1.4).round() as u32
        };
    let y_axis = (y.make)(height.saturating_sub(x_area + top));
    let y_label_width = widest_label(
        area,
        &ink.tick_font(),
        y_axis.major.iter().map(|v| (y.format)(v)),
    );
    let y_area = (y_label_width
        + m.px(12.0)
        + if y.title.is_empty() {
            0
        } else {
            (m.text_px * 1.5).round() as u32
        })
    .min(width / 2);
    let x_axis = (x.make)(width.saturating_sub(y_area + right));

    let mut chart = ChartBuilder::on(area)
        .margin_top(top)
        .margin_right(right)
        .x_label_area_size(x_area)
        .y_label_area_size(y_area)
        .build_cartesian_2d(x_axis, y_axis)?;
    let theme = &ink.theme;
    let mut mesh = chart.configure_mesh();
    mesh.x_label_formatter(x.format)
        .y_label_formatter(y.format)
        .x_labels(64)
        .y_labels(64)
        .x_label_style(ink.tick_font())
        .y_label_style(ink.tick_font())
        .axis_desc_style(ink.text_font())
        .bold_line_style(theme.grid.stroke_width(1))
        .light_line_style(theme.grid_minor.stroke_width(1))
        .axis_style(theme.axis.stroke_width(1))
        .set_all_tick_mark_size(m.px(4.0));
    if !x.title.is_empty() {
        mesh.x_desc(x.title);
    }
    if !y.title.is_empty() {
        mesh.y_desc(y.title);
    }
    mesh.draw()?;
    Ok(chart)
}
