//! The landing page: open a bundle from a file (picker or drag and drop), a URL, or the demo;
//! and the error of the last attempt, which for a malformed bundle names the field's path.

use super::app::{load_files, load_url, DEMO_BUNDLE};
use super::use_store;
use crate::state::Load;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// The landing page.
#[function_component(Landing)]
pub fn landing() -> Html {
    let store = use_store();
    let dragging = use_state(|| false);
    let url = use_state(String::new);
    // A researcher's site (`report --site`) ships no demo: offer it only where it is.
    let demo_here = use_state(|| false);
    {
        let demo_here = demo_here.clone();
        use_effect_with((), move |_| {
            wasm_bindgen_futures::spawn_local(async move {
                demo_here.set(crate::browser::exists(DEMO_BUNDLE).await);
            });
        });
    }

    let on_pick = {
        let store = store.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            load_files(&store, files_of(input.files()));
        })
    };
    let on_drop = {
        let (store, dragging) = (store.clone(), dragging.clone());
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            dragging.set(false);
            let files = files_of(e.data_transfer().and_then(|t| t.files()));
            load_files(&store, files);
        })
    };
    let on_drag_over = {
        let dragging = dragging.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            dragging.set(true);
        })
    };
    let on_drag_leave = {
        let dragging = dragging.clone();
        Callback::from(move |_: DragEvent| dragging.set(false))
    };
    let on_demo = {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| load_url(&store, DEMO_BUNDLE.to_owned()))
    };
    let on_url_input = {
        let url = url.clone();
        Callback::from(move |e: InputEvent| {
            url.set(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let on_url_submit = {
        let (store, url) = (store.clone(), url.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            if !url.trim().is_empty() {
                load_url(&store, url.trim().to_owned());
            }
        })
    };
    let busy = matches!(store.load, Load::Loading(_));

    html! {
        <section class="landing">
            if let Load::Failed { source, message } = &store.load {
                <div class="error" role="alert" data-testid="error">
                    <strong>{ format!("Cannot open {source}") }</strong>
                    <pre>{ message }</pre>
                </div>
            }
            <div
                class={classes!("drop", (*dragging).then_some("dragging"))}
                ondrop={on_drop}
                ondragover={on_drag_over}
                ondragleave={on_drag_leave}
                data-testid="drop-zone"
            >
                <p>{ "Drop a results bundle here (" }<code>{ "wasmeval report --bundle FILE" }</code>{ ", .json or .json.gz), or several runs' bundles over the same tasks to compare them, or" }</p>
                <label class="button">
                    { "Choose files…" }
                    <input type="file" accept=".json,.gz,application/json,application/gzip" onchange={on_pick}
                        data-testid="file-input" disabled={busy} multiple=true />
                </label>
                if *demo_here {
                    <button onclick={on_demo} data-testid="open-demo" disabled={busy}>
                        { "Open the demo" }
                    </button>
                }
            </div>
            <form class="url" onsubmit={on_url_submit}>
                <label for="bundle-url">{ "or a bundle's URL" }</label>
                <input id="bundle-url" type="url" placeholder="https://…/bundle.json"
                    value={(*url).clone()} oninput={on_url_input} />
                <button type="submit" disabled={busy}>{ "Open" }</button>
            </form>
            <p class="hint">
                { "Everything runs in this page: nothing is uploaded. A link can open a bundle directly with " }
                <code>{ "?bundle=URL" }</code>{ "." }
            </p>
        </section>
    }
}

/// The files of a picker or a drop, in order.
fn files_of(list: Option<web_sys::FileList>) -> Vec<web_sys::File> {
    let Some(list) = list else {
        return Vec::new();
    };
    (0..list.length()).filter_map(|i| list.get(i)).collect()
}
