//! The outline layer, at the top of the report: what a section of the
//! report holds and in which order (its title, its tables with their
//! headings, rows and raw figures, its sentences, the chart drawn in it),
//! decided once here for the three printers that lay it out: the page's
//! results, `firsttoken report`'s terminal text and `report --html`.
//! A printer only lays a section out (a table in HTML or in padded
//! columns, a row stacked into a block on a phone); it adds no figure and
//! moves none.
//!
//! A section is a list of blocks in the order every printer prints them:
//! tables, lists of sentences (each about one target or one model), single
//! sentences, hints, the place of a chart and the place of the exports. A
//! block's name says what it holds; how the name shows is the block's
//! [`Show`], the same for every printer.
//!
//! The sections, in the order the results show them: for a run until
//! decided, how it ended and where each question stands ([`decided`]); the comparison per
//! model and the targets without a success ([`comparison`]), "Prompt size
//! and prefill speed" ([`prefill`]), "Prompt cache" ([`cache`]), "First
//! try and rate limits" ([`deploy`]), "When does it go cold?" ([`idle`]),
//! "Fidelity: the same answers?" ([`fidelity`]), "Routing table"
//! ([`routing`]) and "Time of day" ([`timeofday`]); [`results`] puts them
//! in that order, after the line that says which requests the figures are
//! computed from, with the place of the charts (whose items the chart
//! crate makes from the same report for the page and the HTML report).
//!
//! Start here: [`results::results_outline`], every [`Section`] of a report
//! in order.

pub mod cache;
pub mod comparison;
pub mod decided;
pub mod deploy;
pub mod fidelity;
pub mod idle;
pub mod prefill;
pub mod results;
pub mod routing;
pub mod timeofday;

use crate::judgement::verdict::Judgement;
use crate::narrative::sentences::Said;

/// One section of the report.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Section {
    /// Its anchor (`idle`, `model-0`), unique in a report.
    pub id: String,
    /// What kind of section it is (`idle`, `model-block`): the class a
    /// printer gives it, the same for every section of the kind.
    pub kind: &'static str,
    /// Its heading.
    pub title: String,
    /// Its raw figures as `(attribute, value)` (`data-model`).
    pub data: Vec<(&'static str, String)>,
    /// What it holds, in order.
    pub blocks: Vec<Block>,
}

impl Section {
    /// An empty section of this anchor, kind and heading.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn new(id: impl Into<String>, kind: &'static str, title: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            kind,
            title: title.into(),
            data: Vec::new(),
            blocks: Vec::new(),
        }
    }

    /// Its tables, in order.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn tables(&self) -> impl Iterator<Item = &Table> {
        self.blocks.iter().filter_map(|block| match block {
            Block::Table(table) => Some(table),
            _ => None,
        })
    }

    /// Every sentence of its lists about one target, in order.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn notes(&self) -> Vec<Said> {
        self.blocks
            .iter()
            .filter_map(|block| match block {
                Block::Notes(notes) => Some(notes.items.iter().filter_map(Note::said)),
                _ => None,
            })
            .flatten()
            .collect()
    }

    /// The id of the chart placed in it, if any.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn chart(&self) -> Option<&'static str> {
        self.blocks.iter().find_map(|block| match block {
            Block::Chart(id) => Some(*id),
            _ => None,
        })
    }
}

/// A part of a section.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    /// A table.
    Table(Table),
    /// A list of sentences, each about one target.
    Notes(Notes),
    /// One sentence about the section as a whole.
    Sentence(Sentence),
    /// A paragraph that explains what is above it.
    Hint(String),
    /// The chart drawn here, by its item's id (the chart crate builds the
    /// item; a printer without charts leaves it out).
    Chart(&'static str),
    /// The configs made from the section: the page's download buttons,
    /// the HTML report's config texts (a terminal has `report --config`).
    Exports,
}

/// How a block's name shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Show {
    /// As a sub-heading above the block.
    Heading,
    /// Before the text, in bold where the printer has bold.
    Lead,
    /// Only where a line would otherwise not say what it is: a terminal
    /// prefixes it to each line; a page, where the block sits under its
    /// table, leaves it out.
    #[default]
    Quiet,
}

/// A list of sentences, each about one target.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Notes {
    /// What the list holds ("Cold-start tail"); empty for none.
    pub name: &'static str,
    /// How the name shows.
    pub show: Show,
    /// The list's class (`tails`), for styles and tests.
    pub class: &'static str,
    /// Its sentences.
    pub items: Vec<Note>,
}

impl Notes {
    /// A list of these sentences, each without raw figures.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn of(name: &'static str, show: Show, class: &'static str, said: &[Said]) -> Self {
        Self {
            name,
            show,
            class,
            items: said.iter().cloned().map(Note::from).collect(),
        }
    }
}

/// One sentence of a list: what it is about (a target, by its label and
/// index; or a model, by its name), and its raw figures.
#[derive(Clone, Debug, PartialEq)]
pub struct Note {
    /// The target's index in the plan (`data-target` in HTML); `None` for a
    /// sentence about a model, whose `data` names it (`data-model`).
    pub target: Option<u32>,
    /// The target's label, or the model's name.
    pub label: String,
    /// The sentence, without the label.
    pub text: String,
    /// Its raw figures as `(attribute, value)` (`data-within`).
    pub data: Vec<(&'static str, String)>,
}

impl Note {
    /// A sentence about target `said.target` with these raw figures.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn with_data(said: Said, data: Vec<(&'static str, String)>) -> Self {
        Self {
            target: Some(said.target),
            label: said.label,
            text: said.text,
            data,
        }
    }

    /// A sentence about model `model`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn about_model(model: &str, text: String) -> Self {
        Self {
            target: None,
            label: model.to_owned(),
            text,
            data: vec![("data-model", model.to_owned())],
        }
    }

    /// The sentence as core's narrative says it, when it is about a target.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn said(&self) -> Option<Said> {
        Some(Said {
            target: self.target?,
            label: self.label.clone(),
            text: self.text.clone(),
        })
    }
}

impl From<Said> for Note {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn from(said: Said) -> Self {
        Self::with_data(said, Vec::new())
    }
}

/// One sentence about the section as a whole.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sentence {
    /// What it says ("Consistency").
    pub name: &'static str,
    /// How the name shows.
    pub show: Show,
    /// Its class (`best-provider`), for styles and tests.
    pub class: &'static str,
    /// The sentence.
    pub text: String,
    /// Its raw figures as `(attribute, value)`.
    pub data: Vec<(&'static str, String)>,
}

/// A table: its columns and rows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// Its class (`comparison`), for styles and tests.
    pub class: &'static str,
    /// Its own heading, under the section's, when a section has a table
    /// per target (the target's label).
    pub title: Option<String>,
    /// Its raw figures as `(attribute, value)` (`data-target`).
    pub data: Vec<(&'static str, String)>,
    /// Every column.
    pub columns: Vec<Column>,
    /// The rows.
    pub rows: Vec<Row>,
}

/// What a column's cells are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Role {
    /// A figure or a word.
    #[default]
    Cell,
    /// The cell that heads its row (the target); the first column when no
    /// column is.
    Heading,
    /// The row's rank: its order, left out where rows are stacked.
    Rank,
    /// The row's verdict ([`Row::judgement`]), drawn as a badge where a
    /// printer can.
    Verdict,
    /// A fidelity verdict's word, its name (`consistent`) the cell's value,
    /// drawn as a pill where a printer can.
    Fidelity,
}

/// A column of a table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Column {
    /// Its heading, also the label of its cell in a row stacked on a phone.
    pub heading: &'static str,
    /// Its heading where columns are narrow (a terminal's).
    pub short: &'static str,
    /// A number, aligned right.
    pub numeric: bool,
    /// Takes a stacked row's whole width on a phone (a long cell).
    pub wide: bool,
    /// What its cells are.
    pub role: Role,
    /// Its cells' own class (`median`), for styles and tests; empty for
    /// none.
    pub class: &'static str,
}

impl Column {
    /// A column of this heading, a number or not, of a cell's own width.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub const fn new(heading: &'static str, numeric: bool) -> Self {
        Self {
            heading,
            short: heading,
            numeric,
            wide: false,
            role: Role::Cell,
            class: "",
        }
    }

    /// This column with its narrow heading.
    #[cfg_attr(target_arch = "wasm32", inline)]
    #[must_use]
    pub const fn short(mut self, short: &'static str) -> Self {
        self.short = short;
        self
    }

    /// This column, its cell taking a stacked row's whole width.
    #[cfg_attr(target_arch = "wasm32", inline)]
    #[must_use]
    pub const fn wide(mut self) -> Self {
        self.wide = true;
        self
    }

    /// This column with its cells' own class.
    #[cfg_attr(target_arch = "wasm32", inline)]
    #[must_use]
    pub const fn class(mut self, class: &'static str) -> Self {
        self.class = class;
        self
    }

    /// This column with its cells' role.
    #[cfg_attr(target_arch = "wasm32", inline)]
    #[must_use]
    pub const fn role(mut self, role: Role) -> Self {
        self.role = role;
        self
    }
}

impl Table {
    /// Which column heads the rows: the one whose role is
    /// [`Role::Heading`], else the first.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn heading_column(&self) -> usize {
        self.columns
            .iter()
            .position(|c| c.role == Role::Heading)
            .unwrap_or(0)
    }
}

/// One row: its cells as printed, and its raw figures for the printers
/// that carry them (`data-` attributes in HTML, for tests and scripts).
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
    /// The verdict of a [`Role::Verdict`] column, for its badge.
    pub judgement: Option<Judgement>,
}
