//! The Review view: a blind review of the selection's code with a rubric (core's
//! `review::builtin_rubrics`), keyboard first, saved in localStorage as it goes; then the
//! reviewers' aggregates (core's `ReviewReport`, the same tables as `wasmeval report --reviews`)
//! over this session and any reviewers' files imported.

use super::data_table::DataTable;
use super::use_store;
use crate::browser;
use crate::review_session::{key_of, Key, Row, Session, STORAGE_KEY};
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

/// The session in progress, if any, changed only through [`Change`]s.
#[derive(Default, PartialEq)]
struct Reviewing(Option<Session>);

/// What the reviewer did.
enum Change {
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
            <button onclick={start} data-testid="review-start"
                disabled={reviewer.trim().is_empty() || planned.is_empty()}>{ "Start" }</button>
        </div>
    }
}

/// What [`ItemView`] shows.
#[derive(Properties, PartialEq)]
struct ItemProps {
    session: UseReducerHandle<Reviewing>,
    current: Session,
}

/// One item: the task, the code (one sample, or two side by side), the rubric's rows.
#[function_component(ItemView)]
fn item_view(props: &ItemProps) -> Html {
    let store = use_store();
    let Some(data) = store.data.clone() else {
        return html! {};
    };
    let s = &props.current;
    let planned = &s.planned[s.position];
    let task = data.bundle.tasks.iter().find(|t| t.id == planned.task_id);
    let press = {
        let session = props.session.clone();
        Callback::from(move |key: Key| session.dispatch(Change::Press(key)))
    };
    let on_key = {
        let press = press.clone();
        Callback::from(move |e: KeyboardEvent| {
            if let Some(key) = key_of(&e.key()) {
                e.prevent_default();
                press.emit(key);
            }
        })
    };
    let set = |row: usize, digit: u8| {
        let session = props.session.clone();
        Callback::from(move |_: MouseEvent| session.dispatch(Change::Set(row, digit)))
    };
    let reveal = {
        let session = props.session.clone();
        Callback::from(move |_: MouseEvent| session.dispatch(Change::Reveal))
    };
    let finish = {
        let session = props.session.clone();
        Callback::from(move |_: MouseEvent| session.dispatch(Change::Finish))
    };
    let side_names = if s.width() == 2 {
        ["Left", "Right"]
    } else {
        ["Code", ""]
    };
    let sample = |side: usize| {
        let index = planned.samples[side];
        let result = data
            .bundle
            .results
            .iter()
            .find(|r| r.index == index && r.task_id == planned.task_id);
        html! {
            <div class="side" data-testid={format!("review-side-{side}")}>
                <h4>
                    { side_names[side] }
                    if !s.blind {
                        if let Some(r) = result {
                            { format!(" — {} ", r.model.clone().unwrap_or_default()) }
                            <span class={format!("verdict {}", r.verdict.as_str())}>{ r.verdict.as_str() }</span>
                        }
                    }
                </h4>
                { super::sample_detail::code_block(result.and_then(|r| r.code.as_deref()), task.map(|t| t.language).unwrap_or_default()) }
            </div>
        }
    };
    let rows = s.rows();
    html! {
        <div class="review-item" tabindex="0" onkeydown={on_key} data-testid="review-item">
            <p class="progress" data-testid="review-progress">
                { format!("{} of {}", s.position + 1, s.planned.len()) }
                { format!(" · {} scored · ", s.done()) }
                { "keys: 1-9 score, ↑↓ row, → or Enter next, ← back" }
            </p>
            if let Some(task) = task {
                <details class="task" open=true>
                    <summary>{ format!("Task {}", task.id.0) }</summary>
                    <pre class="code">{ if task.description.is_empty() { &task.prompt } else { &task.description } }</pre>
                </details>
            }
            <div class={classes!(if s.width() == 2 { "side-by-side" } else { "single" })}>
                { for (0..s.width()).map(sample) }
            </div>
            <table class="rubric" data-testid="review-rubric-rows">
                <tbody>
                    { for rows.iter().enumerate().map(|(i, row)| {
                        let focused = i == s.row;
                        match row {
                            Row::Score { property, side } => {
                                let levels = s.rubric.property(property).map(|p| p.levels.clone()).unwrap_or_default();
                                let given = s.score(property, *side);
                                html! {
                                    <tr class={classes!(focused.then_some("focused"))} data-row={i.to_string()}>
                                        <th scope="row">{ format!("{} · {}", property.replace('_', " "), side_names[*side]) }</th>
                                        <td>
                                            { for levels.iter().enumerate().map(|(l, level)| html! {
                                                <button class={classes!("level", (given == Some(level.value)).then_some("chosen"))}
                                                    title={level.description.clone().unwrap_or_default()}
                                                    onclick={set(i, (l + 1) as u8)}>
                                                    { format!("{} {}", l + 1, level.label) }
                                                </button>
                                            }) }
                                        </td>
                                    </tr>
                                }
                            }
                            Row::Better => html! {
                                <tr class={classes!(focused.then_some("focused"))} data-row={i.to_string()}>
                                    <th scope="row">{ "Better" }</th>
                                    <td>
                                        { for [0usize, 1].iter().map(|&b| html! {
                                            <button class={classes!("level", (s.better[s.position] == Some(b)).then_some("chosen"))}
                                                onclick={set(i, (b + 1) as u8)}>{ format!("{} {}", b + 1, side_names[b]) }</button>
                                        }) }
                                    </td>
                                </tr>
                            },
                        }
                    }) }
                </tbody>
            </table>
            // The focused row's levels with what each means (method-level, accuracy, custom).
            if let Some(Row::Score { property, .. }) = rows.get(s.row) {
                if let Some(p) = s.rubric.property(property).filter(|p| p.levels.iter().any(|l| l.description.is_some())) {
                    <dl class="levels" data-testid="review-levels">
                        { for p.levels.iter().enumerate().map(|(l, level)| html! {
                            <><dt>{ format!("{} {}", l + 1, level.label) }</dt><dd>{ level.description.clone().unwrap_or_default() }</dd></>
                        }) }
                    </dl>
                }
            }
            <p class="steps">
                <button onclick={press.reform(|_: MouseEvent| Key::Previous)} disabled={s.position == 0}>{ "← Previous" }</button>
                <button onclick={press.reform(|_: MouseEvent| Key::Next)} data-testid="review-next">{ "Next (or skip) →" }</button>
                if s.blind {
                    <button class="link" onclick={reveal} data-testid="review-reveal">{ "End blind mode" }</button>
                }
                <button onclick={finish} data-testid="review-finish">{ "Finish" }</button>
            </p>
        </div>
    }
}
