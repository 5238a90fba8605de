//! One module per screen: each takes the page's props
//! ([`crate::ui::model::state::page::PageProps`]) and shows its screen.

pub(crate) mod dashboard_view;
pub(crate) mod results_view;
pub(crate) mod run_view;
pub(crate) mod setup_view;
