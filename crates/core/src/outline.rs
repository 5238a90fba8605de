//! The outline layer, at the top of the report: what a section of the
//! report holds and in which order (its title, its tables with their
//! headings, rows and raw figures, its sentences, the chart drawn in it),
//! decided once here for the three printers that lay it out: the page's
//! results, `firsttoken report`'s terminal text and `report --html`.
//! A printer only lays a section out (a table in HTML or in padded
//! columns, a row stacked into a block on a phone); it adds no figure and
//! moves none.
//!
//! Sections built here so far: "Prompt cache" ([`cache`]), "When does it
//! go cold?" ([`idle`]) and "Time of day" ([`timeofday`]). The
//! other sections of the report are still laid out by each printer
//! (docs/architecture.md, "The report outline").

pub mod cache;
pub mod idle;
pub mod timeofday;

use crate::narrative::sentences::Said;

/// One section of the report.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Section {
    /// Its anchor and the class of its tables (`idle`), the same in every
    /// printer.
    pub id: &'static str,
    /// Its heading.
    pub title: String,
    /// Its tables, in order.
    pub tables: Vec<Table>,
    /// Its sentences, each about one target, after the tables.
    pub notes: Vec<Said>,
    /// A paragraph after them that explains the section, if any.
    pub hint: Option<String>,
    /// The chart drawn after the sentences, by its item's id (the chart
    /// crate builds the item; a printer without charts leaves it out).
    pub chart: Option<&'static str>,
}

/// A table: its columns and rows, each row headed by its first cell.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// Every column, the row heading's first.
    pub columns: Vec<Column>,
    /// The rows.
    pub rows: Vec<Row>,
}

/// A column of a table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Column {
    /// Its heading, also the label of its cell in a row stacked on a phone.
    pub heading: &'static str,
    /// A number, aligned right in a terminal.
    pub numeric: bool,
    /// Takes a stacked row's whole width on a phone (a long cell).
    pub wide: bool,
}

impl Column {
    /// A column of this heading, a number or not, of a cell's own width.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub const fn new(heading: &'static str, numeric: bool) -> Self {
        Self {
            heading,
            numeric,
            wide: false,
        }
    }
}

/// One row: its cells as printed, the first heading the row, and its raw
/// figures as `(attribute, value)` for the printers that carry them
/// (`data-` attributes in HTML, for tests and scripts).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Row {
    /// The printed cells, one per column.
    pub cells: Vec<String>,
    /// Each cell's raw figure (`data-value` in HTML), where it has one;
    /// empty when no cell has.
    pub values: Vec<Option<String>>,
    /// Which cells give only what the data bound from below ("≥ x",
    /// `data-lower-bound` in HTML); empty when none does.
    pub lower_bounds: Vec<bool>,
    /// The raw figures, unrounded, in the form `report --json` prints,
    /// each under its attribute's name (`data-gap-s`).
    pub data: Vec<(&'static str, String)>,
}
