//! The Review view: a blind review of the selection's code with a rubric (core's
//! `review::builtin_rubrics`), keyboard first, saved in localStorage as it goes; then the
//! reviewers' aggregates (core's `ReviewReport`, the same tables as `wasmeval report --reviews`)
//! over this session and any reviewers' files imported.

use super::data_table::DataTable;
use super::review_item::ItemView;
use super::use_store;
use crate::browser;
use crate::review_session::{Key, Session, STORAGE_KEY};
use std::rc::Rc;
use wasmeval_core::review::{
    builtin_rubrics, plan_session, Mode, ReviewFile, ReviewSummary, Reviews,
};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// The review page.
#[function_component(Review)]
pub fn review() -> Html {
    let store = use_store();
    // The session, restored from localStorage (nothing is lost by closing the tab). A reducer,
    // not a state: keys pressed faster than the page renders each apply to the latest session.
    let session = use_reducer(|| {
        Reviewing(
            browser::stored(STORAGE_KEY)
                .and_then(|text| serde_json::from_str::<Session>(&text).ok()),
        )
    });
    {
        let saved = session.0.clone();
        use_effect_with(saved, |saved| {
            let text = saved.as_ref().and_then(|s| serde_json::to_string(s).ok());
            browser::store(STORAGE_KEY, text.as_deref());
        });
    }
    // A reducer, not a state: files read together each add theirs to the latest list.
    let imported = use_reducer(Imported::default);
    let import_error = use_state(|| None::<String>);
    let readers = use_mut_ref(Vec::new);
    let Some(data) = store.data.clone() else {
        return html! {};
    };
    // A session of another bundle (a task it names is not here) is not resumed.
    let session_here = session.0.as_ref().filter(|s| {
        s.planned
            .iter()
            .all(|item| data.bundle.tasks.iter().any(|t| t.id == item.task_id))
    });

    let on_import = {
        let (imported, import_error, readers) =
            (imported.clone(), import_error.clone(), readers.clone());
        let known: Rc<std::collections::BTreeSet<(wasmeval_core::TaskId, u64)>> = Rc::new(
            data.bundle
                .results
                .iter()
                .map(|r| (r.task_id.clone(), r.index))
                .collect(),
        );
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let Some(list) = input.files() else { return };
            let files: Vec<web_sys::File> =
                (0..list.length()).filter_map(|i| list.get(i)).collect();
            let mut held = Vec::new();
            for file in files {
                let (imported, import_error, known) =
                    (imported.clone(), import_error.clone(), known.clone());
                let name = file.name();
                held.push(gloo::file::callbacks::read_as_text(
                    &gloo::file::File::from(file),
                    move |read| {
                        let parsed = read
                            .map_err(|e| e.to_string())
                            .and_then(|text| ReviewFile::parse(&text, Some(&known)));
                        match parsed {
                            Ok(file) => {
                                imported.dispatch((name, file));
                                import_error.set(None);
                            }
                            Err(message) => import_error.set(Some(format!("{name}: {message}"))),
                        }
                    },
                ));
            }
            *readers.borrow_mut() = held;
        })
    };

    let body = match session_here {
        None => html! { <Setup session={session.clone()} /> },
        Some(current) if !current.finished => {
            html! { <ItemView session={session.clone()} current={current.clone()} /> }
        }
        Some(_) => html! {},
    };
    // The aggregates: this session's file (once finished) and every imported one.
    let mut files: Vec<(String, ReviewFile)> = Vec::new();
    if let Some(current) = session_here.filter(|s| s.finished) {
        files.push(("this session".into(), current.file()));
    }
    files.extend(imported.0.iter().cloned());
    let aggregates = if files.is_empty() {
        html! {}
    } else {
        // Grouped as the page is (rows are per model already), like `report --reviews --by F`.
        let facets: Vec<wasmeval_core::facets::Facet> = store
            .group_by
            .iter()
            .copied()
            .filter(|f| *f != wasmeval_core::facets::Facet::Model)
            .collect();
        match Reviews::merge(files) {
            Ok(reviews) => aggregates(&reviews, &data, &facets),
            Err(message) => {
                html! { <p class="error" role="alert" data-testid="review-error">{ message }</p> }
            }
        }
    };
    let export = session_here.map(|current| {
        let file = current.file();
        Callback::from(move |_: MouseEvent| {
            let text = serde_json::to_string_pretty(&file).unwrap_or_default();
            let _ = browser::download(
                &format!("review-{}.json", file.reviewer),
                "application/json",
                &text,
            );
        })
    });
    let end = {
        let session = session.clone();
        Callback::from(move |_: MouseEvent| session.dispatch(Change::End))
    };
    html! {
        <section class="review" data-testid="review">
            { body }
            if let Some(current) = session_here.filter(|s| s.finished) {
                <p data-testid="review-finished">{ format!("{}: {} of {} items scored.", current.reviewer, current.done(), current.planned.len()) }</p>
                { after_review(current, &data) }
            }
            <div class="review-files">
                if let Some(export) = export {
                    <button onclick={export} data-testid="review-export">{ "Export my scores (JSON)" }</button>
                    <button class="link" onclick={end} data-testid="review-new">{ "New session" }</button>
                }
                <label class="button">
                    { "Import reviewers' files…" }
                    <input type="file" accept=".json,application/json" multiple=true
                        onchange={on_import} data-testid="review-import" />
                </label>
            </div>
            if let Some(error) = &*import_error {
                <p class="error" role="alert" data-testid="review-error">{ error }</p>
            }
            { aggregates }
        </section>
    }
}

/// What a finished session's reviewer needs next: the seed (and the rest of the plan) a second
/// reviewer must use to get the same items in the same order, and how the files merge.
fn after_review(session: &Session, data: &crate::state::Dataset) -> Html {
    let mut plan = format!("rubric \"{}\", seed {}", session.rubric.title, session.seed);
    if !session.query.is_empty() {
        plan.push_str(&format!(", selection `{}`", session.query));
    }
    if session.rubric.mode == Mode::Pairwise {
        plan.push_str(&format!(
            ", models {} and {}",
            session.models[0], session.models[1]
        ));
    }
    // The runs the bundle was made from, as `report` takes them.
    let runs = match &data.bundle.about {
        Some(about) if !about.name.is_empty() => about.name.replace(" + ", " "),
        _ => "RESULTS".to_owned(),
    };
    let merge = format!(
        "wasmeval report {runs} --reviews review-{}.json review-OTHER.json",
        session.reviewer
    );
    html! {
        <div class="review-next" data-testid="review-next-steps">
            <p data-testid="review-seed-note">
                { format!("A second reviewer gets the same items in the same order with the same plan: {plan}. Export your scores, then merge the reviewers' files here (\"Import reviewers' files…\") or with:") }
            </p>
            <p class="command"><code data-testid="review-merge-command">{ merge }</code></p>
        </div>
    }
}

/// The session in progress, if any, changed only through [`Change`]s.
#[derive(Default, PartialEq)]
pub(super) struct Reviewing(pub(super) Option<Session>);

/// What the reviewer did.
pub(super) enum Change {
    Start(Box<Session>),
    Press(Key),
    /// A level clicked: row `.0` gets digit `.1`.
    Set(usize, u8),
    Reveal,
    Finish,
    End,
}

impl Reducible for Reviewing {
    type Action = Change;

    fn reduce(self: Rc<Self>, change: Change) -> Rc<Self> {
        let mut next = self.0.clone();
        match (change, next.as_mut()) {
            (Change::Start(session), _) => next = Some(*session),
            (Change::End, _) => next = None,
            (Change::Press(key), Some(s)) => s.press(key),
            (Change::Set(row, digit), Some(s)) => {
                s.row = row;
                s.press(Key::Digit(digit));
            }
            (Change::Reveal, Some(s)) => s.blind = false,
            (Change::Finish, Some(s)) => s.finish(),
            (_, None) => return self,
        }
        Rc::new(Reviewing(next))
    }
}

/// The reviewers' files imported, in the order read.
#[derive(Default, PartialEq)]
struct Imported(Vec<(String, ReviewFile)>);

impl Reducible for Imported {
    type Action = (String, ReviewFile);

    fn reduce(self: Rc<Self>, file: Self::Action) -> Rc<Self> {
        let mut files = self.0.clone();
        files.push(file);
        Rc::new(Imported(files))
    }
}

/// The aggregate tables of merged reviews over the bundle, grouped by `facets`.
fn aggregates(
    reviews: &Reviews,
    data: &crate::state::Dataset,
    facets: &[wasmeval_core::facets::Facet],
) -> Html {
    let summary = ReviewSummary::new(reviews, &data.bundle.tasks, &data.bundle.results, facets);
    let reviewers = &summary.by_facets.reviewers;
    html! {
        <div class="review-aggregates" data-testid="review-aggregates">
            <h3>{ format!("{} reviewer(s): {}", reviewers.len(), reviewers.join(", ")) }</h3>
            { for reviews.notes.iter().map(|n| html! { <p class="hint">{ n }</p> }) }
            { for summary.tables().into_iter().map(|(title, table)| {
                let name = format!("review-{}", title.replace(' ', "-"));
                html! { <DataTable table={table} key_columns={2} name={name} caption={Some(AttrValue::from(title))} /> }
            }) }
        </div>
    }
}

/// Why Start is disabled, when it is.
fn start_hint(no_reviewer: bool, no_items: bool, mode: Mode) -> Option<&'static str> {
    match (no_items, no_reviewer, mode) {
        (true, _, Mode::Pairwise) => Some(
            "Nothing to review: pairs need a sample of each of the two models compared for the same \
             task. Choose the models in \"Compare models\", or widen the selection.",
        ),
        (true, _, _) => Some("Nothing to review in this selection: widen it."),
        (false, true, _) => Some("Type your name as reviewer to start: it names your scores' file."),
        (false, false, _) => None,
    }
}

/// What [`Setup`] changes.
#[derive(Properties, PartialEq)]
struct SetupProps {
    session: UseReducerHandle<Reviewing>,
}

/// Starting a session: the rubric, the reviewer, the seed, and for a pairwise rubric the models.
#[function_component(Setup)]
fn setup(props: &SetupProps) -> Html {
    let store = use_store();
    let rubric = use_state(|| 0usize);
    let reviewer = use_state(String::new);
    let seed = use_state(|| 1u64);
    // A custom rubric loaded from JSON joins the list (and is chosen).
    let custom = use_state(|| None::<wasmeval_core::review::Rubric>);
    let custom_error = use_state(|| None::<String>);
    let reader = use_mut_ref(|| None::<gloo::file::callbacks::FileReader>);
    let Some(data) = store.data.clone() else {
        return html! {};
    };
    let mut rubrics = builtin_rubrics();
    rubrics.extend((*custom).clone());
    let on_custom = {
        let (custom, custom_error, rubric, reader) = (
            custom.clone(),
            custom_error.clone(),
            rubric.clone(),
            reader.clone(),
        );
        let builtin = builtin_rubrics().len();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let Some(file) = input.files().and_then(|list| list.get(0)) else {
                return;
            };
            let name = file.name();
            let (custom, custom_error, rubric) =
                (custom.clone(), custom_error.clone(), rubric.clone());
            *reader.borrow_mut() = Some(gloo::file::callbacks::read_as_text(
                &gloo::file::File::from(file),
                move |read| match read
                    .map_err(|e| e.to_string())
                    .and_then(|text| wasmeval_core::review::Rubric::parse(&text))
                {
                    Ok(loaded) => {
                        custom.set(Some(loaded));
                        custom_error.set(None);
                        rubric.set(builtin);
                    }
                    Err(message) => custom_error.set(Some(format!("{name}: {message}"))),
                },
            ));
        })
    };
    let chosen = rubrics[(*rubric).min(rubrics.len() - 1)].clone();
    let models = [
        store.compare[0].clone().unwrap_or_default(),
        store.compare[1].clone().unwrap_or_default(),
    ];
    let planned = plan_session(
        &data.bundle.tasks,
        &data.bundle.results,
        &store.query,
        &chosen,
        [&models[0], &models[1]],
        *seed,
    );
    let start = {
        let (session, reviewer, chosen, planned) = (
            props.session.clone(),
            reviewer.clone(),
            chosen.clone(),
            planned.clone(),
        );
        let (seed, query, models) = (
            *seed,
            store.query_text_in_force().to_owned(),
            models.clone(),
        );
        Callback::from(move |_: MouseEvent| {
            if reviewer.trim().is_empty() || planned.is_empty() {
                return;
            }
            session.dispatch(Change::Start(Box::new(Session::new(
                reviewer.trim().to_owned(),
                chosen.clone(),
                seed,
                query.clone(),
                models.clone(),
                planned.clone(),
            ))))
        })
    };
    let on_rubric = {
        let rubric = rubric.clone();
        Callback::from(move |e: Event| {
            rubric.set(
                e.target_unchecked_into::<HtmlSelectElement>()
                    .value()
                    .parse()
                    .unwrap_or(0),
            )
        })
    };
    let on_reviewer = {
        let reviewer = reviewer.clone();
        Callback::from(move |e: InputEvent| {
            reviewer.set(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let on_seed = {
        let seed = seed.clone();
        Callback::from(move |e: InputEvent| {
            seed.set(
                e.target_unchecked_into::<HtmlInputElement>()
                    .value()
                    .parse()
                    .unwrap_or(1),
            )
        })
    };
    html! {
        <div class="review-setup">
            <h2>{ "Blind review" }</h2>
            <p class="hint">{ "Score the selection's code with a rubric. Models, verdicts and metrics stay hidden until you finish. Your scores are kept in this browser as you go; export them to share." }</p>
            <label class="filter"><span>{ "Rubric" }</span>
                <select onchange={on_rubric} data-testid="review-rubric">
                    { for rubrics.iter().enumerate().map(|(i, r)| html! {
                        <option value={i.to_string()} selected={i == *rubric}>{ &r.title }</option>
                    }) }
                </select>
            </label>
            <label class="button">
                { "Load a rubric (JSON)…" }
                <input type="file" accept=".json,application/json" onchange={on_custom}
                    data-testid="review-custom-rubric" />
            </label>
            if let Some(error) = &*custom_error {
                <p class="error" role="alert" data-testid="review-rubric-error">{ error }</p>
            }
            <label class="filter"><span>{ "Reviewer" }</span>
                <input type="text" value={(*reviewer).clone()} oninput={on_reviewer} data-testid="review-reviewer" />
            </label>
            <label class="filter"><span>{ "Seed" }</span>
                <input type="number" min="0" value={seed.to_string()} oninput={on_seed} data-testid="review-seed" />
            </label>
            if chosen.mode == Mode::Pairwise {
                <p class="hint">{ format!("Pairs: the two models of \"Compare models\" ({} and {}), one sample each per task.", models[0], models[1]) }</p>
            }
            <p>{ format!("{} items in this selection.", planned.len()) }</p>
            <p class="hint" data-testid="review-seed-hint">{ "Reviewers who type the same seed, with the same rubric, selection and models, score the same items in the same order." }</p>
            <p class="start">
                <button onclick={start} data-testid="review-start"
                    disabled={reviewer.trim().is_empty() || planned.is_empty()}>{ "Start" }</button>
                if let Some(why) = start_hint(reviewer.trim().is_empty(), planned.is_empty(), chosen.mode) {
                    <span class="hint" data-testid="review-start-hint">{ why }</span>
                }
            </p>
        </div>
    }
}
