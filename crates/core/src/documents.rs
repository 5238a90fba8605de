//! The documents layer: results files, published files, the dashboard's
//! data, routing exports and stored runs, each read and written whole from
//! the judged samples below.

pub mod dashboard;
pub mod publish;
pub mod results;
pub mod routing_config;
pub mod run;
