//! wasmeval-web: the static site that opens a results bundle in the browser and explores it
//! with no server: filters, scores, charts and drill-down.
//!
//! Layout: [`state`] is the reducer (host-tested), [`charts`] the chart geometry (host-tested),
//! [`browser`] the few calls into the browser (fetch, files, downloads, URL), [`sandbox_worker`]
//! the browser sandbox's worker (code run with no server), and
//! [`components`] one Yew component per file. Every number is computed by `wasmeval-core`.

pub mod browser;
pub mod charts;
pub mod components;
pub mod highlight;
pub mod review_session;
pub mod sandbox_worker;
pub mod state;

pub use wasmeval_core as core;

use wasm_bindgen::prelude::wasm_bindgen;

/// Entry point: mounts the app on the page's body when the module starts.
#[wasm_bindgen(start)]
pub fn start() {
    #[cfg(target_arch = "wasm32")]
    yew::Renderer::<components::app::App>::new().render();
}
