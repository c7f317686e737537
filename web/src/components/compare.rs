//! Two models side by side over the current selection: every metric, the tasks one solved and
//! the other did not (both ways), each task's passes (a page at a time, each row a link), and how
//! each model's code compares with the references (ScenEval's Tables IV and V). A task's link
//! opens its two models' samples in place (`compare_task.rs`), named in the URL (`task=`).

use super::compare_task::TaskPair;
use super::data_table::DataTable;
use super::use_store;
use super::Store;
use crate::browser;
use crate::state::{report, Action};
use std::rc::Rc;
use wasmeval_core::facets::Facet;
use wasmeval_core::query::Query;
use wasmeval_core::TaskId;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// Rows of the per-task table a page (MBPP has 974 tasks).
const PAGE: usize = 50;

/// The comparison page.
#[function_component(Compare)]
pub fn compare() -> Html {
    let store = use_store();
    let Some(data) = store.data.clone() else {
        return html! {};
    };
    let picker = |slot: usize| {
        let store = store.clone();
        let current = store.compare[slot].clone().unwrap_or_default();
        let onchange = Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<HtmlSelectElement>().value();
            store.dispatch(Action::Compare(slot, (!value.is_empty()).then_some(value)))
        });
        html! {
            <select {onchange} data-testid={format!("compare-{slot}")} aria-label={format!("model {}", slot + 1)}>
                <option value="" selected={current.is_empty()}>{ "—" }</option>
                { for data.choices.models.iter().map(|m| html! {
                    <option value={m.clone()} selected={*m == current}>{ m }</option>
                }) }
            </select>
        }
    };
    let models: Vec<String> = store.compare.iter().flatten().cloned().collect();
    let query = store.query.clone().and(Query {
        models: models.clone(),
        ..Query::default()
    });
    // Intervals always: whether two models differ is the question here.
    let side_by_side = report(&data, &query, &[Facet::Model], true);
    let (metrics, values) = side_by_side.table_with_values();
    let per_task =
        data.prepared
            .passes_per_task(&data.bundle.tasks, &data.bundle.results, &query, &models);
    let ids: Vec<TaskId> = per_task
        .rows
        .iter()
        .map(|row| TaskId(row[0].clone()))
        .collect();
    let links = Rc::new(
        ids.iter()
            .map(|id| task_link(&store, id))
            .collect::<Vec<_>>(),
    );
    let open = store
        .compare_task
        .as_ref()
        .and_then(|task| ids.iter().position(|id| id == task));
    let on_open = {
        let store = store.clone();
        Callback::from(move |row: usize| {
            let id = ids.get(row).cloned();
            // A second click closes it.
            let next = id.filter(|id| store.compare_task.as_ref() != Some(id));
            store.dispatch(Action::CompareTask(next))
        })
    };
    let pair = |task: &TaskId| html! { <TaskPair task={task.clone()} models={models.clone()} /> };
    html! {
        <>
            <p class="pickers">{ "Compare " }{ picker(0) }{ " with " }{ picker(1) }</p>
            if models.is_empty() {
                <p class="hint">{ "Choose the models to compare." }</p>
            } else {
                <DataTable table={metrics} values={Some(values)} name="compare-metrics" />
                if let [a, b] = models.as_slice() {
                    { solved_by_one(&store, &data, &query, [a, b]) }
                }
                // A task the table does not list (a link to a task outside the selection).
                if let (None, Some(task)) = (open, &store.compare_task) { { pair(task) } }
                <h3>{ "Per task" }</h3>
                <DataTable table={per_task} name="compare-tasks" page_size={Some(PAGE)}
                    links={Some(links)} {on_open} {open}
                    detail={store.compare_task.as_ref().map(pair).unwrap_or_default()}
                    caption={Some(AttrValue::from("Samples passed of samples run, per model; rows where the models differ are marked. A task opens its models' samples here."))} />
                { for models.iter().map(|model| {
                    let one = report(&data, &store.query.clone().and(Query { models: vec![model.clone()], ..Query::default() }), &[], false);
                    match one.comparison {
                        Some(c) => html! {
                            <>
                                <h3>{ format!("{model}: generated against reference code") }</h3>
                                <DataTable table={c.table()} key_columns={2} name={format!("code-{model}")} />
                            </>
                        },
                        None => html! {},
                    }
                }) }
            }
        </>
    }
}

/// The link that opens `task` in this page (`?view=compare&...&task=ID`).
fn task_link(store: &Store, task: &TaskId) -> String {
    let bundle = browser::url_parameter("bundle");
    store.link(bundle.as_deref(), |s| s.compare_task = Some(task.clone()))
}

/// The tasks each of two models solved and the other did not, each a link that opens the task.
fn solved_by_one(
    store: &Store,
    data: &crate::state::Dataset,
    query: &Query,
    models: [&String; 2],
) -> Html {
    let lists = data.prepared.solved_by_one(
        &data.bundle.tasks,
        &data.bundle.results,
        query,
        [models[0].as_str(), models[1].as_str()],
    );
    let list = |slot: usize| {
        let ids = &lists[slot];
        html! {
            <div class="solved" data-testid={format!("solved-only-{slot}")}>
                <h4>{ format!("Solved by {}, not by {} ({})", models[slot], models[1 - slot], ids.len()) }</h4>
                if ids.is_empty() {
                    <p class="hint">{ "none" }</p>
                }
                <ul>
                    { for ids.iter().map(|id| {
                        let href = task_link(store, id);
                        let (store, pick) = (store.clone(), id.clone());
                        let onclick = Callback::from(move |e: MouseEvent| {
                            if browser::plain_click(&e) {
                                e.prevent_default();
                                store.dispatch(Action::CompareTask(Some(pick.clone())));
                            }
                        });
                        html! { <li><a {href} {onclick}>{ &id.0 }</a></li> }
                    }) }
                </ul>
            </div>
        }
    };
    html! {
        <>
            <h3>{ "Solved by one model only" }</h3>
            <div class="solved-lists">{ list(0) }{ list(1) }</div>
        </>
    }
}
