//! Two models side by side over the current selection: every metric, the tasks one solved and
//! the other did not (both ways, with the two models' code for a task side by side), each task's
//! passes, and how each model's code compares with the references (ScenEval's Tables IV and V).

use super::data_table::DataTable;
use super::use_store;
use crate::state::{report, Action};
use wasmeval_core::facets::Facet;
use wasmeval_core::query::Query;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// The comparison page.
#[function_component(Compare)]
pub fn compare() -> Html {
    let store = use_store();
    let shown = use_state(|| None::<wasmeval_core::TaskId>);
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
    html! {
        <>
            <p class="pickers">{ "Compare " }{ picker(0) }{ " with " }{ picker(1) }</p>
            if models.is_empty() {
                <p class="hint">{ "Choose the models to compare." }</p>
            } else {
                <DataTable table={metrics} values={Some(values)} name="compare-metrics" />
                if let [a, b] = models.as_slice() {
                    { solved_by_one(&data, &query, [a, b], &shown) }
                }
                <h3>{ "Per task" }</h3>
                <DataTable table={per_task} name="compare-tasks"
                    caption={Some(AttrValue::from("Samples passed of samples run, per model; rows where the models differ are marked"))} />
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

/// The tasks each of two models solved and the other did not, and the two models' code for the
/// task picked from those lists.
fn solved_by_one(
    data: &crate::state::Dataset,
    query: &Query,
    models: [&String; 2],
    shown: &UseStateHandle<Option<wasmeval_core::TaskId>>,
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
                        let (shown, pick) = (shown.clone(), id.clone());
                        html! {
                            <li><button class="link" onclick={Callback::from(move |_: MouseEvent| shown.set(Some(pick.clone())))}>{ &id.0 }</button></li>
                        }
                    }) }
                </ul>
            </div>
        }
    };
    // The code of each model for the picked task: a passing sample when it has one.
    let side = |task: &wasmeval_core::TaskId, model: &str| {
        let language = data
            .bundle
            .tasks
            .iter()
            .find(|t| &t.id == task)
            .map(|t| t.language)
            .unwrap_or_default();
        let samples = data
            .bundle
            .results
            .iter()
            .filter(|r| &r.task_id == task && r.model.as_deref() == Some(model));
        let chosen = samples
            .clone()
            .find(|r| r.verdict == wasmeval_core::Verdict::Passed)
            .or_else(|| samples.clone().next());
        html! {
            <div class="side">
                <h4>{ model }
                    if let Some(r) = chosen {
                        { " " }<span class={format!("verdict {}", r.verdict.as_str())}>{ r.verdict.as_str() }</span>
                        { format!(" (sample {})", r.index) }
                    }
                </h4>
                { super::sample_detail::code_block(chosen.and_then(|r| r.code.as_deref()), language) }
            </div>
        }
    };
    html! {
        <>
            <h3>{ "Solved by one model only" }</h3>
            <div class="solved-lists">{ list(0) }{ list(1) }</div>
            if let Some(task) = shown.as_ref() {
                <h3>{ format!("{}: the two models' code", task.0) }</h3>
                <div class="side-by-side" data-testid="side-by-side">
                    { side(task, models[0]) }{ side(task, models[1]) }
                </div>
            }
        </>
    }
}
