//! The app: provides the store, loads the bundle the page asks for on start, and lays out the
//! header, the filters and the current view.

use super::{
    bench::Bench, compare::Compare, explorer::Explorer, filters::Filters, landing::Landing,
    overview::Overview, performance::Performance, playground::Playground, review::Review,
    samples::Samples, Store,
};
use crate::browser;
use crate::sandbox_worker;
use crate::state::{Action, Health, Load, Place, Server, State, View};
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// The bundle `wasmeval report --site` writes beside the page, opened when no other is asked for.
pub const SITE_BUNDLE: &str = "bundle.json";
/// The same, gzipped (`report --site --gzip`), opened when there is no bundle.json.
pub const SITE_BUNDLE_GZ: &str = "bundle.json.gz";
/// The demo bundle shipped with the site.
pub const DEMO_BUNDLE: &str = "demo-bundle.json";

/// Fetches `url` (JSON, or gzipped JSON), reporting its bytes as they arrive, and hands its text
/// to the store.
pub fn load_url(store: &Store, url: String) {
    store.dispatch(Action::Loading(url.clone()));
    let store = store.clone();
    wasm_bindgen_futures::spawn_local(async move {
        // A re-render per 256 KiB, not per network chunk.
        let reported = std::cell::Cell::new(0u64);
        let progress = |received: u64, expected: Option<u64>| {
            if received - reported.get() >= 256 << 10 || Some(received) == expected {
                reported.set(received);
                store.dispatch(Action::Progress(received, expected));
            }
        };
        match browser::fetch_bundle(&url, progress).await {
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
/// in [`READERS`] until the next load (dropping one would cancel its read).
pub fn load_files(store: &Store, files: Vec<web_sys::File>) {
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
            gloo::file::callbacks::read_as_bytes(&gloo::file::File::from(file), move |read| {
                let bytes = match read {
                    Ok(bytes) => bytes,
                    Err(e) => {
                        return store.dispatch(Action::Failed {
                            source: names[slot].clone(),
                            message: format!("cannot read the file: {e}"),
                        })
                    }
                };
                // A gzipped bundle is inflated by the browser, asynchronously.
                wasm_bindgen_futures::spawn_local(async move {
                    let text = match browser::bundle_text(bytes, &names[slot]).await {
                        Ok(text) => text,
                        Err(message) => {
                            return store.dispatch(Action::Failed {
                                source: names[slot].clone(),
                                message,
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
            });
        readers.push(reader);
    }
    READERS.with(|held| *held.borrow_mut() = readers);
}

thread_local! {
    /// The file readers of the last load. Not the landing page's: it unmounts while the files
    /// load, and its readers would be dropped, cancelling the reads.
    static READERS: RefCell<Vec<gloo::file::callbacks::FileReader>> = const { RefCell::new(Vec::new()) };
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
    // The page's place follows the state: a new history entry when the view, the sample, the
    // models compared or the task open in Compare change, the same entry when only the selection
    // or grouping does; Back and Forward go to the place their URL names.
    {
        let state = (*store).clone();
        use_effect_with(state, |state| {
            if state.load == Load::Ready {
                let bundle = browser::url_parameter("bundle");
                let wanted = Place::of(state, bundle.as_deref());
                let current = browser::page_search();
                if wanted != current {
                    let (was, now) = (Place::parse(&current), Place::parse(&wanted));
                    let moved = (was.view, was.sample, was.compare, was.task)
                        != (now.view, now.sample, now.compare, now.task);
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
        Load::Loading(source) => Some(loading_line(source, store.progress)),
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
                } else if let Load::Loading(_) = store.load {
                    // Not the landing page: its buttons would start another load.
                    <div class="loading" data-testid="loading">
                        if let Some((received, Some(expected))) = store.progress {
                            <progress max={expected.to_string()} value={received.min(expected).to_string()} />
                        } else {
                            <progress />
                        }
                    </div>
                } else {
                    <Landing />
                }
            </div>
        </ContextProvider<Store>>
    }
}

/// "Loading NAME… 3.2 MB of 20.6 MB": how far a bundle's download is.
fn loading_line(source: &str, progress: Option<(u64, Option<u64>)>) -> String {
    let megabytes = |bytes: u64| format!("{:.1} MB", bytes as f64 / 1e6);
    match progress {
        // A server that compresses on the fly announces fewer bytes than arrive.
        Some((received, Some(expected))) if received <= expected => format!(
            "Loading {source}… {} of {}",
            megabytes(received),
            megabytes(expected)
        ),
        Some((received, _)) => format!("Loading {source}… {}", megabytes(received)),
        None => format!("Loading {source}…"),
    }
}

/// What a `wasmeval serve` answers at, relative to the page: present only when one served it.
pub const HEALTH: &str = "api/v1/health";

/// On start: ask whether a server can run code, then open `?bundle=URL` if given, else the site's
/// own bundle if there is one (bundle.json, else bundle.json.gz), else the landing page.
fn start(store: Store) {
    sandbox_worker::remember_url_limits();
    {
        let store = store.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let server = match browser::fetch_text(HEALTH).await {
                Ok(text) => serde_json::from_str::<Health>(&text)
                    .ok()
                    .map(Server::Present),
                Err(_) => None,
            };
            let server = match server {
                Some(server) => server,
                // No server: the site may ship guests for the browser's sandbox.
                None => {
                    let mut languages = Vec::new();
                    for (language, manifest) in sandbox_worker::GUESTS {
                        if browser::exists(manifest).await {
                            languages.push(language);
                        }
                    }
                    match languages.is_empty() {
                        true => Server::Absent,
                        false => Server::Browser(languages),
                    }
                }
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
        for bundle in [SITE_BUNDLE, SITE_BUNDLE_GZ] {
            if browser::exists(bundle).await {
                return load_url(&store, bundle.to_owned());
            }
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
        View::Review => html! { <Review /> },
    }
}

/// Title, the open bundle, and the view menu.
#[function_component(Header)]
fn header() -> Html {
    let store = super::use_store();
    let source = store.data.as_ref().map(|d| d.source.clone());
    // The bundle named as its writer named it (run, models, date), else by where it came from.
    let about = store.data.as_ref().map(|data| {
        let about = data.bundle.about.clone().unwrap_or_default();
        let name = if about.name.is_empty() {
            data.source.clone()
        } else {
            about.name
        };
        let models = match data.choices.models.len() {
            0 => String::new(),
            1..=4 => format!(" · {}", data.choices.models.join(", ")),
            n => format!(" · {n} models"),
        };
        let date = about.date.map(|d| format!(" · {d}")).unwrap_or_default();
        (format!("{name}{models}{date}"), about.note)
    });
    let close = {
        let store = store.clone();
        Callback::from(move |_| store.dispatch(Action::Close))
    };
    html! {
        <header>
            <h1>{ "wasmeval" }</h1>
            if let (Some(source), Some((title, note))) = (source, about) {
                <span class="source" data-testid="bundle-name" title={format!("the open bundle: {source}")}>{ title }</span>
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
                            ><span class="long">{ v.label() }</span><span class="short">{ v.short_label() }</span></button>
                        }
                    }) }
                </nav>
                if let Some(note) = note {
                    <p class="note" data-testid="bundle-note" role="note">{ note }</p>
                }
            }
        </header>
    }
}
