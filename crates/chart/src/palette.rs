//! Colours that survive colour-blindness: the Okabe–Ito palette for series,
//! plus the neutral colours (background, text, grid) of the light and dark
//! themes. Charts also vary shape and dash, so colour is never the only cue.

use plotters::style::RGBColor;

/// Okabe–Ito black.
pub(crate) const BLACK: RGBColor = RGBColor(0, 0, 0);
/// Okabe–Ito orange.
pub(crate) const ORANGE: RGBColor = RGBColor(230, 159, 0);
/// Okabe–Ito sky blue.
pub(crate) const SKY_BLUE: RGBColor = RGBColor(86, 180, 233);
/// Okabe–Ito bluish green.
pub(crate) const BLUISH_GREEN: RGBColor = RGBColor(0, 158, 115);
/// Okabe–Ito yellow.
pub(crate) const YELLOW: RGBColor = RGBColor(240, 228, 66);
/// Okabe–Ito blue.
pub(crate) const BLUE: RGBColor = RGBColor(0, 114, 178);
/// Okabe–Ito vermillion: also the colour of errors and p95 markers.
pub(crate) const VERMILLION: RGBColor = RGBColor(213, 94, 0);
/// Okabe–Ito reddish purple.
pub(crate) const REDDISH_PURPLE: RGBColor = RGBColor(204, 121, 167);

/// Series order on a light background: the strongest contrasts first,
/// yellow last because it is faint on white.
const LIGHT_SERIES: [RGBColor; 8] = [
    BLUE,
    ORANGE,
    BLUISH_GREEN,
    REDDISH_PURPLE,
    SKY_BLUE,
    VERMILLION,
    BLACK,
    YELLOW,
];

/// Series order on a dark background: blue and black are faint there, so
/// they go last (black becomes a light grey).
const DARK_SERIES: [RGBColor; 8] = [
    SKY_BLUE,
    ORANGE,
    BLUISH_GREEN,
    REDDISH_PURPLE,
    YELLOW,
    VERMILLION,
    RGBColor(220, 220, 220),
    BLUE,
];

/// Number of distinct series colours; series beyond it reuse the colours
/// with a dashed line (see [`series_dashed`]).
pub(crate) const SERIES_COLOURS: usize = 8;

/// Colour of series `index` (0-based), cycling after [`SERIES_COLOURS`].
#[must_use]
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn series_colour(index: usize, dark: bool) -> RGBColor {
    let colours = if dark { &DARK_SERIES } else { &LIGHT_SERIES };
    colours[index % SERIES_COLOURS]
}

/// Whether series `index` is drawn dashed, so that series 0 and 8 (same
/// colour) still differ.
#[must_use]
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn series_dashed(index: usize) -> bool {
    (index / SERIES_COLOURS) % 2 == 1
}

/// `colour` laid over `background` with opacity `alpha` (0–1), as one
/// opaque colour: for legend swatches of translucent fills.
#[must_use]
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn blend(colour: RGBColor, background: RGBColor, alpha: f64) -> RGBColor {
    let alpha = alpha.clamp(0.0, 1.0);
    let mix = |f: u8, b: u8| (f64::from(f) * alpha + f64::from(b) * (1.0 - alpha)).round() as u8;
    RGBColor(
        mix(colour.0, background.0),
        mix(colour.1, background.1),
        mix(colour.2, background.2),
    )
}

/// The neutral colours of one theme.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Theme {
    /// Chart background.
    pub background: RGBColor,
    /// Titles, tick labels, median markers.
    pub text: RGBColor,
    /// Subtitles, notes, "no data".
    pub muted: RGBColor,
    /// Axis lines.
    pub axis: RGBColor,
    /// Major grid lines.
    pub grid: RGBColor,
    /// Minor grid lines.
    pub grid_minor: RGBColor,
    /// Shaded bands (peak hours).
    pub band: RGBColor,
    /// Errors and p95 markers.
    pub alert: RGBColor,
}

/// The theme for a light (`dark = false`) or dark page.
#[must_use]
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn theme(dark: bool) -> Theme {
    if dark {
        Theme {
            background: RGBColor(24, 26, 31),
            text: RGBColor(232, 232, 232),
            muted: RGBColor(160, 164, 172),
            axis: RGBColor(150, 154, 162),
            grid: RGBColor(62, 66, 74),
            grid_minor: RGBColor(42, 45, 52),
            band: RGBColor(52, 56, 66),
            alert: VERMILLION,
        }
    } else {
        Theme {
            background: RGBColor(255, 255, 255),
            text: RGBColor(30, 30, 30),
            muted: RGBColor(96, 96, 96),
            axis: RGBColor(110, 110, 110),
            grid: RGBColor(222, 222, 222),
            grid_minor: RGBColor(240, 240, 240),
            band: RGBColor(236, 236, 236),
            alert: VERMILLION,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_eight_series_colours_are_distinct() {
        for dark in [false, true] {
            let colours: Vec<_> = (0..SERIES_COLOURS)
                .map(|i| series_colour(i, dark))
                .collect();
            for (i, a) in colours.iter().enumerate() {
                for b in &colours[i + 1..] {
                    assert_ne!(a, b);
                }
            }
        }
    }

    #[test]
    fn ninth_series_reuses_first_colour_dashed() {
        assert_eq!(series_colour(8, false), series_colour(0, false));
        assert!(!series_dashed(0));
        assert!(series_dashed(8));
        assert!(!series_dashed(16));
    }

    #[test]
    fn blend_mixes_channels() {
        assert_eq!(
            blend(RGBColor(200, 0, 100), RGBColor(0, 200, 100), 0.25),
            RGBColor(50, 150, 100)
        );
        assert_eq!(blend(BLUE, BLACK, 1.0), BLUE);
    }

    #[test]
    fn themes_contrast_text_with_background() {
        for dark in [false, true] {
            let t = theme(dark);
            let luma = |c: RGBColor| {
                0.299 * f64::from(c.0) + 0.587 * f64::from(c.1) + 0.114 * f64::from(c.2)
            };
            assert!((luma(t.text) - luma(t.background)).abs() > 150.0);
        }
    }
}
