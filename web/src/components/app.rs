//! The app: provides the store, loads the bundle the page asks for on start, and lays out the
//! header, the filters and the current view.

use super::{
    bench::Bench, compare::Compare, explorer::Explorer, filters::Filters, landing::Landing,
    overview::Overview, performance::Performance, playground::Playground, samples::Samples, Store,
};
use crate::browser;
use crate::state::{Action, Health, Load, Place, Server, State, View};
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// The bundle `wasmeval report --site` writes beside the page, opened when no other is asked for.
pub const SITE_BUNDLE: &str = "bundle.json";
/// The demo bundle shipped with the site.
pub const DEMO_BUNDLE: &str = "demo-bundle.json";

/// Fetches `url` and hands its text to the store.
pub fn load_url(store: &Store, url: String) {
    store.dispatch(Action::Loading(url.clone()));
    let store = store.clone();
    wasm_bindgen_futures::spawn_local(async move {
        match browser::fetch_text(&url).await {
            Ok(text) => store.dispatch(Action::Loaded { source: url, text }),
            Err(message) => store.dispatch(Action::Failed {
                source: url,
                message,
            }),
        }
    });
}

/// Reads picked or dropped files and hands their texts to the store once all are read: one
/// bundle opens as it is, several combine into one (see `Action::LoadedRuns`). The readers live
/// in `holder` until they finish (dropping one would cancel its read).
pub fn load_files(store: &Store, files: Vec<web_sys::File>, holder: &super::landing::ReaderHolder) {
    if files.is_empty() {
        return;
    }
    let names: Vec<String> = files.iter().map(|f| f.name()).collect();
    store.dispatch(Action::Loading(names.join(", ")));
    let texts: Rc<RefCell<Vec<Option<String>>>> = Rc::new(RefCell::new(vec![None; files.len()]));
    let mut readers = Vec::new();
    for (slot, file) in files.into_iter().enumerate() {
        let (store, texts, names) = (store.clone(), texts.clone(), names.clone());
        let reader =
            gloo::file::callbacks::read_as_text(&gloo::file::File::from(file), move |read| {
                let text = match read {
                    Ok(text) => text,
                    Err(e) => {
                        return store.dispatch(Action::Failed {
                            source: names[slot].clone(),
                            message: format!("cannot read the file: {e}"),
                        })
                    }
                };
                texts.borrow_mut()[slot] = Some(text);
                let done: Option<Vec<String>> = texts.borrow().iter().cloned().collect();
                if let Some(done) = done {
                    store.dispatch(Action::LoadedRuns(
                        names.iter().cloned().zip(done).collect(),
                    ));
                }
            });
        readers.push(reader);
    }
    *holder.borrow_mut() = readers;
}

/// The root component.
#[function_component(App)]
pub fn app() -> Html {
    let store = use_reducer(State::default);
    let bench = use_memo((), |_| browser::url_parameter("bench"));
    {
        let store = store.clone();
        let bench = bench.is_some();
        use_effect_with((), move |_| {
            if !bench {
                start(store);
            }
        });
    }
    // The page's place follows the state: a new history entry when the view, the sample or the
    // models compared change, the same entry when only the selection or grouping does; Back and
    // Forward go to the place their URL names.
    {
        let state = (*store).clone();
        use_effect_with(state, |state| {
            if state.load == Load::Ready {
                let bundle = browser::url_parameter("bundle");
                let wanted = Place::of(state, bundle.as_deref());
                let current = browser::page_search();
                if wanted != current {
                    let (was, now) = (Place::parse(&current), Place::parse(&wanted));
                    let moved =
                        (was.view, was.sample, was.compare) != (now.view, now.sample, now.compare);
                    browser::set_page_search(&wanted, moved);
                }
            }
        });
    }
    {
        let store = store.clone();
        use_effect_with((), move |_| {
            let listener = browser::BackForward::listen(move || {
                store.dispatch(Action::Go(Place::parse(&browser::page_search())))
            });
            move || drop(listener)
        });
    }
    if let Some(size) = bench.as_ref() {
        return html! { <main data-testid="app"><Bench size={size.clone()} /></main> };
    }
    let status = match &store.load {
        Load::Loading(source) => Some(format!("Loading {source}…")),
        _ => None,
    };
    html! {
        <ContextProvider<Store> context={store.clone()}>
            <div class="app" data-testid="app">
                <Header />
                <p class="status" data-testid="status" role="status" aria-live="polite">
                    { status.unwrap_or_default() }
                </p>
                if store.load == Load::Ready {
                    // The selection shapes the reports, not what the playground runs.
                    if store.view != View::Playground { <Filters /> }
                    <main>{ view(store.view) }</main>
                } else {
                    <Landing />
                }
            </div>
        </ContextProvider<Store>>
    }
}

/// What a `wasmeval serve` answers at, relative to the page: present only when one served it.
pub const HEALTH: &str = "api/v1/health";

/// On start: ask whether a server can run code, then open `?bundle=URL` if given, else the site's
/// own bundle if there is one, else the landing page.
fn start(store: Store) {
    {
        let store = store.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let server = match browser::fetch_text(HEALTH).await {
                Ok(text) => {
                    serde_json::from_str::<Health>(&text).map_or(Server::Absent, Server::Present)
                }
                Err(_) => Server::Absent,
            };
            store.dispatch(Action::Server(server));
        });
    }
    // The place the URL names, shown once the bundle is open.
    store.dispatch(Action::Go(Place::parse(&browser::page_search())));
    if let Some(url) = browser::url_parameter("bundle") {
        load_url(&store, url);
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        if browser::exists(SITE_BUNDLE).await {
            load_url(&store, SITE_BUNDLE.to_owned());
        }
    });
}

fn view(view: View) -> Html {
    match view {
        View::Overview => html! { <Overview /> },
        View::Explorer => html! { <Explorer /> },
        View::Performance => html! { <Performance /> },
        View::Compare => html! { <Compare /> },
        View::Samples => html! { <Samples /> },
        View::Playground => html! { <Playground /> },
    }
}

/// Title, the open bundle, and the view menu.
#[function_component(Header)]
fn header() -> Html {
    let store = super::use_store();
    let source = store.data.as_ref().map(|d| d.source.clone());
    let close = {
        let store = store.clone();
        Callback::from(move |_| store.dispatch(Action::Close))
    };
    html! {
        <header>
            <h1>{ "wasmeval" }</h1>
            if let Some(source) = source {
                <span class="source" title="the open bundle">{ source }</span>
                <button class="link" onclick={close}>{ "Open another" }</button>
                <nav aria-label="views">
                    { for View::ALL.iter().map(|&v| {
                        let store = store.clone();
                        let current = store.view == v;
                        html! {
                            <button
                                class={classes!("tab", current.then_some("current"))}
                                aria-current={current.then_some("page")}
                                data-testid={format!("view-{v:?}").to_lowercase()}
                                onclick={Callback::from(move |_| store.dispatch(Action::Show(v)))}
                            >{ v.label() }</button>
                        }
                    }) }
                </nav>
            }
        </header>
    }
}
