//! The site's components, one per file. They read the [`Store`] from context and change it only
//! by dispatching [`crate::state::Action`]s.

pub mod app;
pub mod bar_chart;
pub mod bench;
pub mod compare;
pub mod compare_task;
pub mod data_table;
pub mod explorer;
pub mod filters;
pub mod landing;
pub mod overview;
pub mod performance;
pub mod playground;
pub mod review;
pub mod review_item;
pub mod sample_detail;
pub mod samples;

use crate::state::{Action, State};
use std::rc::Rc;
use yew::prelude::*;

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new(self.apply(action))
    }
}

/// The app's state and its dispatcher, shared with every component through context.
pub type Store = UseReducerHandle<State>;

/// The store from context; every component is rendered inside [`app::App`], which provides it.
#[hook]
pub fn use_store() -> Store {
    use_context::<Store>().expect("components are rendered inside App")
}
