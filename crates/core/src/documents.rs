//! The documents layer: results files, published files, the dashboard's
//! data, routing exports and stored runs, each read and written whole from
//! the judged samples below.
//!
//! Start here: [`results::export_json`], [`results::export_csv`],
//! [`results::import_json`] and [`results::merge`] for results files;
//! [`routing_config::litellm_yaml`] for the routing exports;
//! [`publish::directory::publish_run`] for published files;
//! [`dashboard::read_published`] for the dashboard's data;
//! [`run::RunRecord`] for a stored run.

pub mod dashboard;
pub mod publish;
pub mod results;
pub mod routing_config;
pub mod run;
