//! Two models side by side over the current selection: every metric, each task's passes, and
//! how each model's code compares with the references (ScenEval's Tables IV and V).

use super::data_table::DataTable;
use super::use_store;
use crate::state::{report, Action};
use std::collections::BTreeMap;
use wasmeval_core::facets::Facet;
use wasmeval_core::query::Query;
use wasmeval_core::report::Table;
use wasmeval_core::Verdict;
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
    let per_task = per_task_table(&data.bundle, &query, &models);
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

/// One row per selected task: each model's passed/run, and whether they differ.
fn per_task_table(
    bundle: &wasmeval_core::report::Bundle,
    query: &Query,
    models: &[String],
) -> Table {
    let tasks: BTreeMap<&str, &wasmeval_core::Task> = bundle
        .tasks
        .iter()
        .filter(|t| query.matches_task(t))
        .map(|t| (t.id.0.as_str(), t))
        .collect();
    // (task, model) -> (passed, run)
    let mut counts: BTreeMap<(&str, &str), (u64, u64)> = BTreeMap::new();
    for result in &bundle.results {
        let (Some(model), Some(task)) = (
            result.model.as_deref(),
            tasks.get(result.task_id.0.as_str()),
        ) else {
            continue;
        };
        if !models.iter().any(|m| m == model) || !query.matches_sample(task, Some(model)) {
            continue;
        }
        let entry = counts
            .entry((result.task_id.0.as_str(), model))
            .or_default();
        entry.0 += u64::from(result.verdict == Verdict::Passed);
        entry.1 += 1;
    }
    let mut headers = vec!["task".to_owned()];
    headers.extend(models.iter().cloned());
    headers.push("differs".into());
    let rows = tasks
        .keys()
        .map(|task| {
            let cells: Vec<Option<(u64, u64)>> = models
                .iter()
                .map(|m| counts.get(&(*task, m.as_str())).copied())
                .collect();
            let rates: Vec<Option<f64>> = cells
                .iter()
                .map(|c| c.and_then(|(p, n)| (n > 0).then(|| p as f64 / n as f64)))
                .collect();
            let mut row = vec![(*task).to_owned()];
            row.extend(
                cells
                    .iter()
                    .map(|c| c.map_or("-".into(), |(p, n)| format!("{p}/{n}"))),
            );
            row.push(
                if rates.windows(2).any(|w| w[0] != w[1]) {
                    "yes"
                } else {
                    ""
                }
                .into(),
            );
            row
        })
        .collect();
    Table { headers, rows }
}
