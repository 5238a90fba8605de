//! Test groups; `support` holds the shared client helpers.

mod cli;
mod endpoints;
mod faults;
mod fidelity;
mod static_files;
mod streams;
mod support;
