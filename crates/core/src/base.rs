//! The base layer: what every other layer may name and that names nothing
//! above it. Reading JSON documents, typed failures, the one order for
//! numbers, origins (where a key may go), prices, peak hours, dates, the
//! language of a sentence and text made safe for a terminal.
//!
//! Start here: [`lang::Lang`], the language every sentence is said in;
//! [`document::from_str`] and [`document::to_string`], how every document
//! is read and written; [`failure::SampleError`], a failed request's typed
//! failure; [`origin::Origin`], where a key may go; [`price::Price`];
//! [`printable::printable`], text made safe for a terminal.

pub mod calendar;
pub mod document;
pub mod failure;
pub mod json_path;
pub mod lang;
pub mod order;
pub mod origin;
pub mod peak;
pub mod price;
pub mod printable;
