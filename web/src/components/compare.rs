//! Two models side by side over the current selection: every metric, each task's passes, and
//! how each model's code compares with the references (ScenEval's Tables IV and V).

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
    let side_by_side = report(&data, &query, &[Facet::Model]);
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
                <h3>{ "Per task" }</h3>
                <DataTable table={per_task} name="compare-tasks"
                    caption={Some(AttrValue::from("Samples passed of samples run, per model; rows where the models differ are marked"))} />
                { for models.iter().map(|model| {
                    let one = report(&data, &store.query.clone().and(Query { models: vec![model.clone()], ..Query::default() }), &[]);
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
